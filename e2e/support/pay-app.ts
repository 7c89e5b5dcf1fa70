// The hosted pages for e2e files: the BUILT Next.js app (`next build apps/pay` into its own
// apps/pay/.next-e2e, run here only when that build is missing or older than apps/pay), started
// with `next start` on a free port and pointed at a test API (BASE_URL), and headless Chromium
// (Debian's chromium, driven by playwright-core).
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';

// scripts/pay.js is plain CommonJS shared with npm start / npm run dev.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pay = require('../../scripts/pay.js') as {
  PAY_DIR: string;
  nextStartArgs: (port: number | string) => string[];
  nextEnv: (env?: NodeJS.ProcessEnv, distDir?: string) => NodeJS.ProcessEnv;
  isPayBuildCurrent: (distDir?: string) => boolean;
  buildPay: (o?: { quiet?: boolean; distDir?: string }) => Promise<{ code: number; output: string }>;
};

/** The suite's own build, apart from `npm run build`'s apps/pay/.next that `npm start` may be serving. */
const DIST_DIR = '.next-e2e';

export const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Builds the pay app (into apps/pay/.next-e2e) unless that build is current. */
export async function ensurePayBuild(): Promise<void> {
  if (pay.isPayBuildCurrent(DIST_DIR)) return;
  const { code, output } = await pay.buildPay({ quiet: true, distDir: DIST_DIR });
  if (code !== 0) throw new Error(`next build apps/pay failed (exit ${code}):\n${output.slice(-4000)}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface PayServer {
  url: string;
  /** what next start printed so far */
  output: () => string;
  stop: () => Promise<void>;
}

/** `next start apps/pay` on a free port with BASE_URL = the given API (and any more environment given). */
export async function startPayServer(baseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<PayServer> {
  const port = await freePort();
  // No `-H 127.0.0.1`: Next.js 15 then takes its own middleware rewrites (the 410 pages) for
  // external ones (it spells loopback hosts as localhost) and loses their status.
  const child: ChildProcess = spawn(process.execPath, pay.nextStartArgs(port), {
    env: pay.nextEnv({ ...process.env, ...env, BASE_URL: baseUrl }, DIST_DIR),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${log}`);
    try {
      await fetch(`${url}/icon.svg`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`next start did not answer within 30 s:\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, output: () => log, stop };
}

export interface Browser {
  context: BrowserContext;
  page: () => Promise<Page>;
  close: () => Promise<void>;
}

/** Headless Chromium with a fresh profile; a phone-sized viewport (the pages are mobile first). */
export async function startBrowser(): Promise<Browser> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'svc-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 390, height: 844 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  return {
    context,
    page: () => context.newPage(),
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export const SCREENSHOTS = path.join(__dirname, '..', '..', 'test-output', 'pay');

/** A full-page screenshot under test-output/pay/ (not committed). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's WCAG checks run inside the page as it is now (issue 24: 0 violations on every page
 * state). Returns the violations, each with the selectors of its nodes, so a failure names them.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    type Result = {
      violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }>;
    };
    const g = globalThis as unknown as {
      axe: { run: (ctx: unknown, o: object) => Promise<Result> };
      document: unknown;
    };
    const result = await g.axe.run(g.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
}

/** A full-page screenshot, then axe in light and in dark scheme: both must find nothing. */
export async function checkState(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const violations = await axeViolations(page);
    if (violations.length) throw new Error(`axe (${colorScheme}) on ${name}: ${JSON.stringify(violations, null, 2)}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
