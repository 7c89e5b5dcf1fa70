// The merchant's logo, fetched by the pay app's server and served from our own origin
// (docs/pages.md › Branding): no buyer's browser calls the merchant's host, so it never learns
// who opened a checkout. https only, at most LOGO_MAX_BYTES, raster images only (an SVG served
// from our origin could carry script), no redirects, and never to a private or loopback address
// in production (checked on the address actually connected to, so DNS cannot rebind it).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export const LOGO_MAX_BYTES = 256 * 1024;
export const LOGO_TIMEOUT_MS = 5_000;
/** How long a fetched logo (or a failure) is kept before the merchant's host is asked again. */
export const LOGO_CACHE_MS = 10 * 60_000;
const CACHE_ENTRIES = 500;

export type LogoType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

export interface Logo {
  type: LogoType;
  body: Buffer;
}

/** The image types served, each recognised by its first bytes too (a mislabelled file is refused). */
const MAGIC: Record<LogoType, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) =>
    b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

const isLogoType = (t: string): t is LogoType => Object.prototype.hasOwnProperty.call(MAGIC, t);

/** Only public unicast addresses, unless private ones are allowed (outside production, for tests and dev). */
export function addressAllowed(address: string, allowPrivate: boolean): boolean {
  if (allowPrivate) return true;
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 4);
      const bad = addresses.find((a) => !addressAllowed(a.address, allowPrivate));
      if (bad || !addresses.length)
        return callback(new Error(`logo host ${hostname} resolves to a non-public address`), '', 4);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** One fetch, no cache: the logo, or null for anything that is not a small https raster image. */
export function fetchLogoOnce(url: string, allowPrivate: boolean): Promise<Logo | null> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve(null);
  }
  if (target.protocol !== 'https:' || target.username || target.password) return Promise.resolve(null);
  // Node skips `lookup` for an IP literal, so an address written in the URL is checked here
  const literal = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(literal) && !addressAllowed(literal, allowPrivate)) return Promise.resolve(null);
  return new Promise((resolve) => {
    const req = request(
      target,
      {
        method: 'GET',
        headers: { accept: 'image/png, image/jpeg, image/webp, image/gif', 'user-agent': 'svc-pay-logo' },
        lookup: guardedLookup(allowPrivate),
        timeout: LOGO_TIMEOUT_MS,
      },
      (res) => {
        const type = (res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
        const length = Number(res.headers['content-length'] ?? '0');
        if (res.statusCode !== 200 || !isLogoType(type) || length > LOGO_MAX_BYTES) {
          res.destroy();
          return resolve(null);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > LOGO_MAX_BYTES) {
            res.destroy();
            resolve(null);
          } else chunks.push(chunk);
        });
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve(size <= LOGO_MAX_BYTES && MAGIC[type](body) ? { type, body } : null);
        });
        res.on('error', () => resolve(null));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}

type Entry = { at: number; logo: Promise<Logo | null> };
const cache = new Map<string, Entry>();

/** The logo at `url`, from the cache when fetched (or refused) in the last LOGO_CACHE_MS. */
export function fetchLogo(url: string, allowPrivate: boolean, now = Date.now()): Promise<Logo | null> {
  const hit = cache.get(url);
  if (hit && now - hit.at < LOGO_CACHE_MS) return hit.logo;
  const logo = fetchLogoOnce(url, allowPrivate);
  cache.delete(url);
  cache.set(url, { at: now, logo });
  while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return logo;
}
