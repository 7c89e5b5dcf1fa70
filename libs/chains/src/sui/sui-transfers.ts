// Pure mapping from Sui transactions (as read from the GraphQL service) to ObservedTransfers.
// No I/O here, so every rule is unit-tested in sui-transfers.spec.ts.
import type { Network } from '@svc/domain';
// the SDK's normalizeSuiAddress pads without validating; ours below validates first
import { normalizeStructTag, normalizeSuiAddress as padSuiAddress } from '@mysten/sui/utils';
import type { ChainConfig } from '../registry';
import type { ObservedTransfer } from '../observed-transfer';

/** The coin type of SUI itself; a native token registered without a coin type means this one. */
export const SUI_COIN_TYPE = '0x2::sui::SUI';

/** One balance change of a transaction, exactly as the service reported it. */
export interface SuiBalanceChange {
  /** null for a shared or immutable owner */
  owner: string | null;
  /** MoveType.repr, e.g. 0x000…002::sui::SUI */
  coinType: string | null;
  /** signed BigInt string */
  amount: string | null;
}

/** A transaction with every one of its balance changes, in the service's order. */
export interface SuiTransaction {
  digest: string;
  /** null for system transactions */
  sender: string | null;
  checkpoint: bigint;
  success: boolean;
  balanceChanges: SuiBalanceChange[];
}

/** What the watcher looks for on one (chain, network). */
export interface SuiMatchContext {
  chain: string;
  network: Network;
  /** normalized owner addresses (0x + 64 lower-case hex) */
  watched: ReadonlySet<string>;
  /** normalized coin type → the token address written on payments (the registry's spelling) */
  coinTypes: ReadonlyMap<string, string | null>;
  /** the checkpoint the reader has seen as the latest; confirmations count from it */
  head: bigint;
}

/** 0x + 64 lower-case hex digits, or null when `value` is not a Sui address. */
export function normalizeSuiAddress(value: string): string | null {
  const v = value.trim();
  if (!/^(0x)?[0-9a-fA-F]{1,64}$/.test(v)) return null;
  return padSuiAddress(v.toLowerCase());
}

/** Coin type with every address widened (0x2::sui::SUI → 0x000…002::sui::SUI); null when unparsable. */
export function normalizeCoinType(value: string): string | null {
  try {
    return normalizeStructTag(value.trim());
  } catch {
    return null;
  }
}

/**
 * Coin types whose deposits are credited on this chain: the registry's watched tokens. The value
 * is the token address payments store (`token_address`), so the credit service can compare it
 * as is; a native token registered without a coin type stands for 0x2::sui::SUI and maps to null.
 */
export function watchedCoinTypes(cfg: ChainConfig): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const t of cfg.tokens) {
    if (!t.watched) continue;
    const coinType = t.address ?? (t.native ? SUI_COIN_TYPE : null);
    if (coinType === null) continue; // a watched token without a coin type cannot be matched
    const key = normalizeCoinType(coinType);
    if (key !== null) out.set(key, t.address);
  }
  return out;
}

/**
 * Every positive balance change of a successful transaction that lands on a watched owner in a
 * watched coin type. logIndex is the change's position among all of the transaction's balance
 * changes, so it stays stable however the watch set changes.
 * Skipped: failed transactions (their changes are gas only), owners that are not addresses,
 * zero or negative changes, and changes to the transaction's own sender (a deposit address
 * moving its own coins, e.g. a storage rebate during a sweep, is not a payment).
 */
export function transfersFromTransaction(tx: SuiTransaction, ctx: SuiMatchContext): ObservedTransfer[] {
  if (!tx.success) return [];
  const sender = tx.sender === null ? null : normalizeSuiAddress(tx.sender);
  const out: ObservedTransfer[] = [];
  tx.balanceChanges.forEach((change, index) => {
    if (change.owner === null || change.coinType === null || change.amount === null) return;
    const owner = normalizeSuiAddress(change.owner);
    if (owner === null || owner === sender || !ctx.watched.has(owner)) return;
    const coinType = normalizeCoinType(change.coinType);
    if (coinType === null || !ctx.coinTypes.has(coinType)) return;
    let amount: bigint;
    try {
      amount = BigInt(change.amount);
    } catch {
      return;
    }
    if (amount <= 0n) return;
    out.push({
      chain: ctx.chain,
      network: ctx.network,
      txHash: tx.digest,
      logIndex: index,
      fromAddress: sender ?? padSuiAddress('0x0'),
      toAddress: owner,
      tokenAddress: ctx.coinTypes.get(coinType) ?? null,
      amountAtomic: amount,
      blockNumber: tx.checkpoint,
      // A certified checkpoint is final; depth below the head counts as further confirmations.
      confirmations: Number(ctx.head - tx.checkpoint) + 1,
    });
  });
  return out;
}
