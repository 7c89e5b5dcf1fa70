// Whether a transfer can be signed now, from what its sender holds at one block and what it has
// already committed to other signed transfers not yet reflected at that block. Pure.
import type { AmountMode, OutboundWaitReason } from '@svc/domain';

/** Balances of the sender at block B. */
export interface SenderFunds {
  native: bigint;
  /** The transfer's token; null for a native transfer. */
  token: bigint | null;
}

/** Other transfers from the same address signed but not mined at or below B: their worst case. */
export interface Commitments {
  native: bigint;
  token: bigint;
  count: number;
}

export const NO_COMMITMENTS: Commitments = Object.freeze({ native: 0n, token: 0n, count: 0 });

export interface SignInput {
  mode: AmountMode;
  isToken: boolean;
  /** exact: the amount asked. */
  requested: bigint | null;
  /** Token transfers from deposit addresses and refund wallets get their gas from the gas tank. */
  gasFromTank: boolean;
  fromGasTank: boolean;
  gasLimit: bigint;
  price: bigint;
  funds: SenderFunds;
  committed: Commitments;
  /** Top-ups of this transfer not yet reflected at B. */
  openTopUps: number;
}

export type SignDecision =
  | { action: 'sign'; valueAtomic: bigint; amountAtomic: bigint }
  | { action: 'top_up'; amountAtomic: bigint }
  | { action: 'wait'; reason: OutboundWaitReason; message: string };

const wait = (reason: OutboundWaitReason, message: string): SignDecision => ({ action: 'wait', reason, message });

export function decideSign(i: SignInput): SignDecision {
  const fee = i.gasLimit * i.price;
  const nativeFree = i.funds.native - i.committed.native;
  const low: OutboundWaitReason = i.fromGasTank ? 'gas_tank_low' : 'balance_low';
  if (i.mode === 'all' && i.committed.count > 0) {
    return wait('address_busy', `${i.committed.count} earlier transfer(s) from this address are not mined yet`);
  }
  if (!i.isToken) {
    if (i.mode === 'all') {
      const value = i.funds.native - fee;
      if (value <= 0n) return wait('nothing_to_send', `balance ${i.funds.native} does not cover the fee ${fee}`);
      return { action: 'sign', valueAtomic: value, amountAtomic: value };
    }
    const need = (i.requested ?? 0n) + fee;
    if (nativeFree < need) return wait(low, `holds ${nativeFree} free, needs ${need} (amount and fee)`);
    return { action: 'sign', valueAtomic: i.requested ?? 0n, amountAtomic: i.requested ?? 0n };
  }
  const tokenFree = (i.funds.token ?? 0n) - i.committed.token;
  const amount = i.mode === 'all' ? (i.funds.token ?? 0n) : (i.requested ?? 0n);
  if (amount <= 0n) return wait('nothing_to_send', 'token balance is 0');
  if (tokenFree < amount) return wait('balance_low', `holds ${tokenFree} of the token free, needs ${amount}`);
  if (nativeFree >= fee) return { action: 'sign', valueAtomic: 0n, amountAtomic: amount };
  if (!i.gasFromTank) return wait(low, `holds ${nativeFree} free for gas, needs ${fee}`);
  if (i.openTopUps > 0) return wait('waiting_for_top_up', 'waiting for the gas top-up to be mined');
  return { action: 'top_up', amountAtomic: fee - nativeFree };
}

/**
 * The value a native transfer's gas is estimated with (issue 18 case 4): the real one. A contract
 * at the destination (a forwarder whose receive() stores or forwards) costs more gas with a value
 * than without, so an estimate at value 0 makes every such transfer run out of gas. `all` sends the
 * balance minus the fee, which depends on the estimate: it is estimated with the balance less the
 * fee of a generous 100,000 gas (less 21,000 gas for a balance below that), the same code path.
 */
export function nativeEstimateValue(
  mode: AmountMode,
  balance: bigint,
  requested: bigint | null,
  price: bigint,
): bigint {
  if (mode === 'exact') return requested ?? 0n;
  for (const gas of [100_000n, 21_000n]) if (balance > gas * price) return balance - gas * price;
  return 0n;
}
