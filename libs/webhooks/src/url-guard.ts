// Webhook URLs (issue 4, runtime contract): http(s) only; outside production anything goes
// (localhost receivers in development and tests); in production a URL whose host is, or resolves
// to, a private, loopback, link-local or otherwise non-public address is refused, at create and
// again at every delivery (the connection uses the address that was checked: no DNS rebinding).
// An operator may allow specific private addresses and blocks (SVC_WEBHOOK_ALLOW_PRIVATE: a
// receiver on the same host for a benchmark, an internal relay); nothing else is ever reached.
import * as dns from 'node:dns';
import { BlockList, isIP } from 'node:net';
import * as ipaddr from 'ipaddr.js';

export const WEBHOOK_URL_MAX = 2048;

/**
 * False for every address a webhook must not reach in production. Classified with ipaddr.js's
 * IANA special-purpose tables: only plain global unicast is public. IPv6 forms that carry an IPv4
 * address are judged by that address: IPv4-mapped and -translated (`::ffff:a.b.c.d`), NAT64's
 * well-known prefix (`64:ff9b::/96`, RFC 6052) and 6to4 (`2002::/16`, RFC 3056), so
 * `64:ff9b::7f00:1` or `2002:a00:1::` cannot reach loopback or a private network through a
 * translator. The local-use NAT64 prefix (`64:ff9b:1::/48`, RFC 8215) and Teredo are refused whole.
 */
export function isPublicAddress(address: string): boolean {
  if (!isIP(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  switch (range) {
    case 'unicast':
      return true;
    case 'ipv4Mapped':
    case 'rfc6145':
      return isPublicIPv4(v6.parts[6], v6.parts[7]);
    case 'rfc6052':
      // the well-known /96 embeds the IPv4 in its last 32 bits; the local-use /48 is never public
      return v6.match(NAT64_WELL_KNOWN) && isPublicIPv4(v6.parts[6], v6.parts[7]);
    case '6to4':
      return isPublicIPv4(v6.parts[1], v6.parts[2]);
    default:
      return false;
  }
}

const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

function isPublicIPv4(high: number, low: number): boolean {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]).range() === 'unicast';
}

/**
 * The private addresses and CIDR blocks allowed in production (SVC_WEBHOOK_ALLOW_PRIVATE, already
 * validated by the configuration); null when none are.
 */
export function privateAllowList(entries: readonly string[]): BlockList | null {
  if (!entries.length) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/** True for a public address, or one the operator allowed. */
export function isAllowedDestination(address: string, allow: BlockList | null): boolean {
  if (isPublicAddress(address)) return true;
  if (!allow || !isIP(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return allow.check(address, 'ipv4');
  const v6 = ip as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress() && allow.check(v6.toIPv4Address().toString(), 'ipv4')) return true;
  return allow.check(address, 'ipv6');
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/** Syntax only: an absolute http(s) URL with a host and no credentials. */
export function parseWebhookUrl(raw: string): UrlCheck {
  if (raw.length > WEBHOOK_URL_MAX)
    return { ok: false, message: `url must be shorter than or equal to ${WEBHOOK_URL_MAX} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'url must be an absolute http or https URL.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { ok: false, message: 'url must be an http or https URL.' };
  if (!url.hostname) return { ok: false, message: 'url must name a host.' };
  if (url.username || url.password) return { ok: false, message: 'url must not carry credentials.' };
  return { ok: true, url };
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

export class BlockedAddressError extends Error {
  readonly code = 'ESVCBLOCKED';
}

const blockedMessage = (host: string, address: string) =>
  `url resolves to a private, loopback or link-local address (${host} → ${address}); webhooks go to public addresses only.`;

const isLocalhostName = (host: string) =>
  host.toLowerCase() === 'localhost' || host.toLowerCase().endsWith('.localhost');

/**
 * Production check at create and update: every address the host resolves to must be public (or
 * allowed by the operator). Resolution failures are refused too (the merchant can fix DNS and retry).
 */
export async function checkPublicDestination(url: URL, allow: BlockList | null = null): Promise<string | null> {
  const host = hostOf(url);
  // `localhost` is loopback by name; with an allow list it is judged by what it resolves to.
  if (isLocalhostName(host) && !allow) return blockedMessage(host, 'loopback');
  if (isIP(host)) return isAllowedDestination(host, allow) ? null : blockedMessage(host, host);
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (err) {
    return `url host ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'error'}).`;
  }
  const bad = addresses.find((a) => !isAllowedDestination(a.address, allow));
  return bad ? blockedMessage(host, bad.address) : null;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

export type DestinationLookup = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => void;

/**
 * A `lookup` for http.request/https.request that refuses every address that is neither public nor
 * allowed: the socket connects to exactly the address checked here. IP-literal hosts never reach
 * a lookup, so `literalHostBlocked` covers them.
 */
export function destinationLookup(allow: BlockList | null): DestinationLookup {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => !isAllowedDestination(a.address, allow));
      if (bad || !list.length)
        return callback(new BlockedAddressError(blockedMessage(hostname, bad?.address ?? 'nothing')), '');
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

/** `destinationLookup` with nothing private allowed. */
export const publicOnlyLookup: DestinationLookup = destinationLookup(null);

/** At delivery, for an IP-literal host (no DNS lookup happens for it) and the `localhost` name. */
export function literalHostBlocked(url: URL, allow: BlockList | null = null): string | null {
  const host = hostOf(url);
  if (host.toLowerCase() === 'localhost' && !allow) return blockedMessage(host, 'loopback');
  return isIP(host) && !isAllowedDestination(host, allow) ? blockedMessage(host, host) : null;
}
