// "Can it pay?" before a caller plans (or while a sweep is held / a refund awaits funds): the same
// decision the signer will make when it signs, read-only, including the gas tank behind a top-up.
import { getAddress } from 'ethers';
import type { OutboundWaitReason } from '@svc/domain';
import type { SignerContext } from '../context';
import { FeeQuote, aboveCap } from '../fees/fees';
import { GAS_TANK_KEY } from '../keys/keyring';
import { ERC20, EvmRail } from '../rpc/evm-rail';
import { RpcResponseError } from '@svc/chains';
import { Commitments, decideSign, nativeEstimateValue } from './funds';
import { Gather, settle, type Settled } from './gather';
import { committed, CommittedRow } from './outbound.repository';
import type { TransferRequest } from './outbound.service';
import type { CheckFacts } from './outbound-transfer';

/**
 * The gas of a plain value transfer to an account without code. A deposit key of the seed never
 * signs anything but plain transfers (no contract creation, no EIP-7702 delegation), so it holds
 * no code and receiving a value costs exactly this: the gas tank's top-up to it is not estimated.
 */
export const PLAIN_TRANSFER_GAS = 21_000n;

export type PayCheck =
  | {
      ok: true;
      /** What would be sent: the amount asked, or the whole balance (native: minus the fee). */
      amountAtomic: bigint;
      gasLimit: bigint;
      quote: FeeQuote;
      /** gasLimit × price: the most the transfer itself can cost (exactly its cost for a plain transfer). */
      feeAtomic: bigint;
      /** Native coin the gas tank sends first (0 when the sender already holds the fee). */
      topUpAtomic: bigint;
      /** What that top-up costs the gas tank (21,000 gas × price). */
      topUpFeeAtomic: bigint;
      /** What the check read (EVM), for the planned row: the signer decides on them while fresh. */
      facts?: CheckFacts;
    }
  | { ok: false; waitReason: OutboundWaitReason; reason: string };

const no = (waitReason: OutboundWaitReason, reason: string): PayCheck => ({ ok: false, waitReason, reason });

/**
 * `toOwnDepositKey`: the destination is a deposit key of the seed (the gas tank's top-up of it):
 * a plain transfer of PLAIN_TRANSFER_GAS, not estimated.
 */
export async function checkPay(
  ctx: SignerContext,
  req: TransferRequest,
  from: string,
  toOwnDepositKey = false,
): Promise<PayCheck> {
  const rail = ctx.rail(req.chain, req.network);
  const where = `${from} on ${rail.key}`;
  const head = rail.balanceBlock(from, await rail.head());
  const quote = await rail.feeQuote();
  if (aboveCap(quote.price, rail.policy))
    return no('fee_above_cap', `the price ${quote.price} wei/gas is above the cap`);
  const token = req.token === null ? null : getAddress(req.token);
  // both balances in one round trip (EvmRpc batches calls made together)
  const [native, tokenBalance] = await Promise.all([
    rail.nativeBalance(from, head),
    token === null ? null : rail.tokenBalance(token, from, head),
  ]);
  const funds = { native, token: tokenBalance };
  const committed = await ctx.commitmentsReads.read(req.chain, req.network, from, token, head);
  const amount = req.amount === 'all' ? (token === null ? funds.native : (funds.token ?? 0n)) : req.amount;
  const value = nativeEstimateValue(
    req.amount === 'all' ? 'all' : 'exact',
    funds.native,
    req.amount === 'all' ? null : req.amount,
    quote.price,
  );
  const gasLimit =
    toOwnDepositKey && token === null
      ? PLAIN_TRANSFER_GAS
      : await estimate(rail, from, req.to, token, token === null ? value : amount);
  if (typeof gasLimit === 'string')
    return no(amount <= 0n ? 'nothing_to_send' : 'balance_low', `${where}: ${gasLimit}`);
  const decision = decideSign({
    mode: req.amount === 'all' ? 'all' : 'exact',
    isToken: token !== null,
    requested: req.amount === 'all' ? null : req.amount,
    gasFromTank: token !== null && req.from.kind !== 'gas_tank',
    fromGasTank: req.from.kind === 'gas_tank',
    gasLimit,
    price: quote.price,
    funds,
    committed,
    openTopUps: 0,
  });
  const fee = gasLimit * quote.price;
  const facts: CheckFacts = { block: head, at: ctx.now(), native, token: tokenBalance, gasLimit, quote };
  switch (decision.action) {
    case 'wait':
      return no(decision.reason, `${where}: ${decision.message}`);
    case 'sign':
      return {
        ok: true,
        amountAtomic: decision.amountAtomic,
        gasLimit,
        quote,
        feeAtomic: fee,
        topUpAtomic: 0n,
        topUpFeeAtomic: 0n,
        facts,
      };
    case 'top_up': {
      const tank = await checkPay(
        ctx,
        { ...req, from: GAS_TANK_KEY, to: from, token: null, amount: decision.amountAtomic },
        ctx.keyring.gasTankAddress,
        req.from.kind === 'deposit',
      );
      if (!tank.ok)
        return no('gas_tank_low', `the gas tank cannot pay the top-up of ${decision.amountAtomic} wei: ${tank.reason}`);
      return {
        ok: true,
        amountAtomic: amount,
        gasLimit,
        quote,
        feeAtomic: fee,
        topUpAtomic: decision.amountAtomic,
        topUpFeeAtomic: tank.feeAtomic,
        facts,
      };
    }
  }
}

/** The gas of the transfer, or why the node says it would fail. */
async function estimate(
  rail: EvmRail,
  from: string,
  to: string,
  token: string | null,
  amount: bigint,
): Promise<bigint | string> {
  if (token === null) return rail.estimateGas({ from, to, value: amount }); // the real value (issue 18 case 4)
  if (amount <= 0n) return 'token balance is 0';
  try {
    return await rail.estimateGas({ from, to: token, data: ERC20.encodeFunctionData('transfer', [to, amount]) });
  } catch (err) {
    if (err instanceof RpcResponseError) return `the token transfer would revert: ${err.message}`;
    throw err;
  }
}

/** A pay check's read of what `sender` has committed on a rail at `block`. */
interface CommitmentsRead {
  chain: string;
  network: string;
  sender: string;
  block: bigint;
}

/**
 * The checks' reads of what a sender has committed (OutboundRepository.commitments), gathered
 * (gather.ts) and read in one statement by rail and block, each sender once: the pay checks of a
 * planning lot run side by side and resume together when their JSON-RPC batch answers, each asking
 * for its deposit and the gas tank behind its top-up (docs/performance.md › Issue 23: sweeps ›
 * eighth pass). A check that joins a read gets what a read of its own made at that moment would
 * have returned. One per SignerContext (its `commitmentsReads`).
 */
export class CommitmentsReads {
  /** no cap on a flush: every read gathered goes in its rail and block's one statement */
  private readonly gathered = new Gather<CommitmentsRead, CommittedRow[]>(
    (reads) => this.readTogether(reads),
    Number.POSITIVE_INFINITY,
  );

  constructor(private readonly ctx: SignerContext) {}

  async read(
    chain: string,
    network: string,
    sender: string,
    token: string | null,
    block: bigint,
  ): Promise<Commitments> {
    return committed(await this.gathered.add({ chain, network, sender, block }), token);
  }

  /** One statement per rail and block of the reads gathered, each sender once; each read answered its sender's rows. */
  private async readTogether(reads: CommitmentsRead[]): Promise<Array<Settled<CommittedRow[]>>> {
    const groups = new Map<string, { chain: string; network: string; block: bigint; senders: Set<string> }>();
    for (const { chain, network, sender, block } of reads) {
      const key = `${chain}/${network}/${block}`;
      let group = groups.get(key);
      if (!group) {
        group = { chain, network, block, senders: new Set<string>() };
        groups.set(key, group);
      }
      group.senders.add(sender);
    }
    const rows = new Map<string, Settled<Map<string, CommittedRow[]>>>();
    await Promise.all(
      [...groups].map(async ([key, { chain, network, block, senders }]) => {
        const read = this.ctx.repo.committedRows(this.ctx.db.manager, chain, network, [...senders], block);
        rows.set(key, await settle(read));
      }),
    );
    return reads.map(({ chain, network, sender, block }) => {
      const group = rows.get(`${chain}/${network}/${block}`) as Settled<Map<string, CommittedRow[]>>;
      return group.ok ? { ok: true, value: group.value.get(sender) ?? [] } : group;
    });
  }
}
