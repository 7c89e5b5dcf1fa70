// The one table of chain families (architecture › Chain families): a family arrives as a folder
// under libs/chains/src/ and one row here. Everything outside those folders asks this table.
import { sweepSupportOf, type SweepSupport } from '@svc/domain';
import type { ChainFamily } from './family';
import { evmFamily } from './evm/family';
import { solanaFamily } from './solana/family';
import { suiFamily } from './sui/family';
import { tronFamily } from './tron/family';

const TABLE = {
  evm: evmFamily,
  sui: suiFamily,
  solana: solanaFamily,
  tron: tronFamily,
} satisfies Record<string, ChainFamily>;

export type ChainKind = keyof typeof TABLE;
export const CHAIN_KINDS = Object.keys(TABLE) as ChainKind[];

/** The address family of chains the spec accepts without registering them (spec: Limits: all EVM). */
export const UNREGISTERED_CHAIN_KIND: ChainKind = 'evm';

export function family(kind: ChainKind): ChainFamily {
  return TABLE[kind];
}

export const FAMILIES: readonly ChainFamily[] = Object.values(TABLE);

/** How a token on a rail of this family leaves a deposit address (its row's `outbound`; an unknown kind: by hand). */
export function sweepSupport(kind: string, token: { native: boolean; address: string | null }): SweepSupport {
  return sweepSupportOf(kind in TABLE ? TABLE[kind as ChainKind].outbound : null, token);
}
