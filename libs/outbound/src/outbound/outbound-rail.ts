// The outbound rail of a chain family (issue 19 › The seam; docs/money-out.md › Rails): what the
// engine asks a family for, so that nothing above it (OutboundService, the planners, the payout
// runner) branches on a family. One implementation per family with `outbound` in the family table
// (libs/chains/src/families.ts), registered in OUTBOUND_RAILS under the same key:
//   evm  rails/evm/evm-outbound-rail.ts   the nonce-fenced state machine (outbound-engine.ts) and
//                                         the gas top-up from the gas tank, unchanged;
//   sui  rails/sui/sui-outbound-rail.ts   one sponsored transaction (the Sui gas tank is the gas
//                                         owner), fenced by object versions and an expiry epoch.
import type { ChainConfig, OutboundSupport, TokenConfig } from '@svc/chains';
import type { SignerKeyRef } from '../keys/keyring';
import type { PayCheck } from './pay-check';
import type { OutboundTransfer } from './outbound-transfer';
import type { TransferRequest } from './outbound.service';

export interface OutboundRail {
  readonly config: ChainConfig;
  /** How the network fee of a token transfer is funded (the family table's `outbound.feeFunding`). */
  readonly feeFunding: OutboundSupport['feeFunding'];
  /** The address of a key of the seed on this rail (a seedless process reads the ones the signer made). */
  address(key: SignerKeyRef): Promise<string>;
  /** Optional: derives these keys' addresses together ahead of `address` asking one by one (a planning lot). */
  warm?(keys: SignerKeyRef[]): void;
  /** A destination (`to`) or token id (`token`) in the spelling the rail stores; throws OutboundRequestError. */
  parse(value: string, field: 'to' | 'token'): string;
  /**
   * The quote: whether the transfer could be signed now, what it would send and what its fee is
   * (and who funds it); else why not. Read-only, the same decision signing makes.
   */
  check(req: TransferRequest): Promise<PayCheck>;
  /**
   * Moves a transfer on as far as it can go now: its status first (every stored attempt looked up
   * by hash or digest), then build and sign (the signed bytes and the fence stored before anything
   * is sent), broadcast, and, when every attempt's fence is provably dead, a new attempt.
   */
  advance(id: string): Promise<OutboundTransfer>;
  /** The operator's gas tank on this rail and its native balance (atomic). */
  gasTank(): Promise<{ address: string; balanceAtomic: bigint }>;
  /** What `address` holds of a registered token (the native coin included), atomic. */
  balance(address: string, token: TokenConfig): Promise<bigint>;
  /**
   * Runs `fn` as one run over the rail (a payout tick): what the chain says is read once for the
   * run and shared by its steps; `open`: the transfers the run will advance (their receipts can be
   * read in one batch first). Optional: a rail without it reads everything per step.
   */
  run?<T>(fn: () => Promise<T>, open?: string[]): Promise<T>;
  /**
   * How many senders a run advances side by side (default 1: one transfer at a time). Only for a
   * rail whose senders' transactions do not share a fence (EVM: a nonce per sender).
   */
  readonly concurrentSenders?: number;
  /** Optional: closes the rail's connections to its nodes (the process is shutting down). */
  close?(): Promise<void>;
}
