// The EVM family's outbound rail (outbound/outbound-rail.ts): what existed before the seam, behind
// it unchanged. The nonce-fenced state machine is OutboundEngine (sign, broadcast, receipt,
// replace, nonce spent by another), the quote is checkPay, and a token transfer's fee is funded by
// a gas top-up from the gas tank (a transaction of its own, planned by the engine).
import { getAddress } from 'ethers';
import type { ChainConfig, TokenConfig } from '@svc/chains';
import { isFinalOutboundState } from '@svc/domain';
import type { SignerContext } from '../../context';
import type { SignerKeyRef } from '../../keys/keyring';
import type { OutboundEngine } from '../../outbound/outbound-engine';
import { OutboundRequestError } from '../../outbound/outbound.errors';
import type { OutboundRail } from '../../outbound/outbound-rail';
import type { OutboundTransfer } from '../../outbound/outbound-transfer';
import type { TransferRequest } from '../../outbound/outbound.service';
import { checkPay, PayCheck } from '../../outbound/pay-check';

/**
 * Senders a run advances side by side. Each step holds at most one pooled connection at a time
 * (its reads, or its one db transaction; none reads through the pool inside a transaction), and a
 * run holds one more for the rail's lock: 8 fits the services' pools (32) with room to spare.
 */
export const EVM_CONCURRENT_SENDERS = 8;

export class EvmOutboundRail implements OutboundRail {
  readonly feeFunding = 'gas_top_up' as const;
  /** Each sender has its own nonce; the gas tank's top-ups still go one at a time (SignerContext.serial). */
  readonly concurrentSenders = EVM_CONCURRENT_SENDERS;

  constructor(
    private readonly ctx: SignerContext,
    readonly config: ChainConfig,
    private readonly engine: OutboundEngine,
  ) {}

  address(key: SignerKeyRef): Promise<string> {
    return Promise.resolve(this.ctx.keyring.address(key));
  }

  warm(keys: SignerKeyRef[]): void {
    this.ctx.keyring.warm(keys);
  }

  parse(value: string, field: 'to' | 'token'): string {
    try {
      return getAddress(value);
    } catch {
      throw new OutboundRequestError(`${field} must be an EVM address (0x + 40 hex), got "${value}".`);
    }
  }

  async check(req: TransferRequest): Promise<PayCheck> {
    return checkPay(this.ctx, { ...req, to: this.parse(req.to, 'to') }, await this.address(req.from));
  }

  advance(id: string): Promise<OutboundTransfer> {
    return this.engine.advance(id);
  }

  async gasTank(): Promise<{ address: string; balanceAtomic: bigint }> {
    const address = this.ctx.keyring.gasTankAddress;
    return { address, balanceAtomic: await this.evm().nativeBalance(address, 'latest') };
  }

  balance(address: string, token: TokenConfig): Promise<bigint> {
    return token.native
      ? this.evm().nativeBalance(address, 'latest')
      : this.evm().tokenBalance(token.address as string, address, 'latest');
  }

  /**
   * One run: the head, its fee market, balances and nonces read once (EvmRail.run); the open
   * transfers with their stored attempts read in one statement up front, the receipts of those
   * attempts in one JSON-RPC batch, and each transfer's first step of the run decides on that read
   * (OutboundEngine.withReadAhead) instead of reading the row and its attempts again.
   */
  run<T>(fn: () => Promise<T>, open: string[] = []): Promise<T> {
    const evm = this.evm();
    return evm.run(async () => {
      const reads = await this.ctx.repo.withAttempts(this.ctx.db.manager, open);
      // the receipts of open transfers' attempts (their final top-ups come along for the sign step's facts)
      const hashes = reads
        .filter((r) => !isFinalOutboundState(r.row.state))
        .flatMap((r) => r.attempts.map((a) => a.txHash));
      if (hashes.length > 0) await evm.receipts(hashes);
      // the top-ups the lanes insert are signed together once they are done
      return this.engine.withReadAhead(reads, () =>
        this.engine.withTopUpBatches(this.config.chain, this.config.network, fn),
      );
    });
  }

  private evm() {
    return this.ctx.rail(this.config.chain, this.config.network);
  }
}
