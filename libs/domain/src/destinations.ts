// Destinations the API authorised (issue 19 › Keys; docs/money-out.md › Destinations): when the API
// creates a settlement address or a refund, it stores an HMAC-SHA256 under SVC_DESTINATION_KEY of
// what the row says money may be sent to; the signer recomputes it before it signs a leg. A row
// written straight into the database (or changed there afterwards) has no MAC that verifies, so
// nothing is paid to it. Pure: the key comes in, a hex string goes out.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { assertUnreachable } from './types';

/** A settlement address as authorised: every field the signer relies on when it pays it. */
export interface SettlementDestination {
  kind: 'settlement_address';
  workspaceId: string;
  /** the settlement address's id */
  id: string;
  chain: string;
  network: string;
  address: string;
  /** the end of its cool-down: covered, so it cannot be moved earlier in the database */
  activatesAt: Date;
}

/** A refund's recorded destination, for its token on its rail. */
export interface RefundDestination {
  kind: 'refund';
  workspaceId: string;
  /** the refund's id */
  id: string;
  chain: string;
  network: string;
  /** the token contract (ERC-20 address, coin type); null for the native coin */
  tokenAddress: string | null;
  address: string;
}

export type Destination = SettlementDestination | RefundDestination;

/** What a settlement address row authorises (the API when it creates it, the signer when it pays it). */
export function settlementDestination(a: {
  id: string;
  workspaceId: string;
  chain: string;
  network: string;
  address: string;
  activatesAt: Date;
}): SettlementDestination {
  const { id, workspaceId, chain, network, address, activatesAt } = a;
  return { kind: 'settlement_address', workspaceId, id, chain, network, address, activatesAt };
}

/** What a refund row authorises: its toAddress, for its token on its rail. */
export function refundDestination(r: {
  id: string;
  workspaceId: string;
  chain: string;
  network: string;
  tokenAddress: string | null;
  toAddress: string;
}): RefundDestination {
  const { id, workspaceId, chain, network, tokenAddress, toAddress } = r;
  return { kind: 'refund', workspaceId, id, chain, network, tokenAddress, address: toAddress };
}

/** Bumped if the encoding ever changes, so an old MAC can never verify under a new reading. */
const DOMAIN = 'svc.destination.v1';

/**
 * The canonical message: a JSON array of strings in a fixed order (JSON's quoting makes it
 * unambiguous: no field can run into the next), the kind first so a settlement MAC never verifies
 * as a refund's.
 */
export function destinationMessage(d: Destination): string {
  switch (d.kind) {
    case 'settlement_address':
      return JSON.stringify([
        DOMAIN,
        d.kind,
        d.workspaceId,
        d.id,
        d.chain,
        d.network,
        d.address,
        d.activatesAt.toISOString(),
      ]);
    case 'refund':
      return JSON.stringify([
        DOMAIN,
        d.kind,
        d.workspaceId,
        d.id,
        d.chain,
        d.network,
        d.tokenAddress ?? 'native',
        d.address,
      ]);
    default:
      return assertUnreachable(d);
  }
}

/** HMAC-SHA256 of the canonical message, lower-case hex (64 characters). */
export function destinationMac(key: Buffer, d: Destination): string {
  return createHmac('sha256', key).update(destinationMessage(d), 'utf8').digest('hex');
}

/** Whether `mac` is the MAC of `d` under `key` (constant time; a missing or malformed MAC is false). */
export function destinationMacVerifies(key: Buffer, d: Destination, mac: string | null | undefined): boolean {
  if (typeof mac !== 'string' || !/^[0-9a-f]{64}$/.test(mac)) return false;
  return timingSafeEqual(Buffer.from(destinationMac(key, d), 'hex'), Buffer.from(mac, 'hex'));
}
