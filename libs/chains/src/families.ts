// The one table of chain families (architecture › Chain families): a family arrives as a folder
// under libs/chains/src/ and one row here. Everything outside those folders asks this table.
import { useSweepRules } from '@svc/domain';
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

// what each family's sweeps support (libs/domain's sweepSupport asks this; an unknown kind: by hand)
useSweepRules((kind) => (kind in TABLE ? TABLE[kind as ChainKind].outbound : null));
