// The hosted payment pages (architecture › apps/pay). Built with `next build apps/pay` from the
// repository root; it uses the root node_modules. No network at build time: no Google fonts, no
// image optimizer (plain <img> for the merchant's product image), telemetry off in the scripts.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

// The session id in the path is the buyer's only credential (spec: Authentication 2): never send
// it to third parties in a Referer (product images, the merchant's return page).
const SECURITY_HEADERS = [
  { key: 'Referrer-Policy', value: 'no-referrer' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The e2e suite builds and serves its own copy (e2e/support/pay-app.ts), so a test run and an
  // `npm run build` or `npm start` in the same checkout never pull the files from under each other.
  distDir: process.env.PAY_DIST_DIR || '.next',
  poweredByHeader: false,
  reactStrictMode: true,
  // The root `npm run lint` lints apps/pay with the repository's rules.
  eslint: { ignoreDuringBuilds: true },
  outputFileTracingRoot: path.join(here, '..', '..'),
  // The pages share the spec's unions and id shapes with the API: `@svc/domain` (tsconfig paths,
  // pure TypeScript outside apps/pay, compiled with the pages), and the family table's wallet
  // links: `@svc/chains/wallet-links` (files that import nothing).
  // Bodies are at most 16 kB (lib/relay.ts MAX_BODY_BYTES): what Next.js buffers for the
  // middleware is capped at that size too (its default is 10 MB).
  experimental: { externalDir: true, middlewareClientMaxBodySize: 16 * 1024 },
  // Metadata (the <title>) is resolved with the page, never streamed after it: /c/<id> refreshes
  // its server render in place (router.refresh), and a streamed title is absent from the document
  // until it arrives (axe: document-title). Every user agent gets the blocking form.
  htmlLimitedBots: /.*/,
  async headers() {
    return [{ source: '/:path*', headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
