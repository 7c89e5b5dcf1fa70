// Sends dev payments from a funded devnet account: ERC-20 `transfer` or a plain top-level value
// transfer (how the spec says native coins are detected). Used by `dev:pay`, the e2e tests and the bench.
import { JsonRpcProvider, Wallet } from 'ethers';
import { TOKEN_INTERFACE, TRANSFER_TOPIC, devProvider } from './token';

export interface SentTransfer {
  hash: string;
  blockNumber: number;
  /** log index of the Transfer event; -1 for a native transfer */
  logIndex: number;
}

export class DevPayer {
  readonly provider: JsonRpcProvider;
  readonly wallet: Wallet;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(rpcUrl: string, privateKey: string, chainId?: number) {
    this.provider = devProvider(rpcUrl, chainId);
    this.wallet = new Wallet(privateKey, this.provider);
  }

  get address(): string {
    return this.wallet.address;
  }

  /** ERC-20 transfer of `amountAtomic` of `token` to `to`; resolves once mined (and not reverted). */
  sendToken(token: string, to: string, amountAtomic: bigint, opts: { wait?: boolean } = {}): Promise<SentTransfer> {
    return this.send(
      { to: token, data: TOKEN_INTERFACE.encodeFunctionData('transfer', [to, amountAtomic]) },
      opts.wait ?? true,
    );
  }

  /** One transaction carrying `to.length` Transfer events of `amountAtomic` each. */
  sendTokenMany(
    token: string,
    to: string[],
    amountAtomic: bigint,
    opts: { wait?: boolean; gasLimit?: bigint } = {},
  ): Promise<SentTransfer> {
    return this.send(
      {
        to: token,
        data: TOKEN_INTERFACE.encodeFunctionData('transferMany', [to, amountAtomic]),
        gasLimit: opts.gasLimit ?? 60_000n + 40_000n * BigInt(to.length),
      },
      opts.wait ?? true,
    );
  }

  /** Plain top-level transfer of `wei` native coin. */
  sendNative(to: string, wei: bigint, opts: { wait?: boolean } = {}): Promise<SentTransfer> {
    return this.send({ to, value: wei }, opts.wait ?? true);
  }

  close(): void {
    this.provider.destroy();
  }

  // Sends one at a time so nonces never collide inside a process.
  private send(
    tx: { to: string; data?: string; value?: bigint; gasLimit?: bigint },
    wait: boolean,
  ): Promise<SentTransfer> {
    const run = async (): Promise<SentTransfer> => {
      const nonce = await this.provider.getTransactionCount(this.wallet.address, 'pending');
      const sent = await this.wallet.sendTransaction({
        ...tx,
        nonce,
        gasLimit: tx.gasLimit ?? (tx.data ? 200_000n : 21_000n),
      });
      if (!wait) return { hash: sent.hash, blockNumber: -1, logIndex: tx.data ? 0 : -1 };
      const receipt = await sent.wait();
      if (!receipt || receipt.status !== 1) throw new Error(`transaction ${sent.hash} reverted`);
      const log = receipt.logs.find((l) => l.topics[0] === TRANSFER_TOPIC);
      return { hash: sent.hash, blockNumber: receipt.blockNumber, logIndex: tx.data ? (log?.index ?? -1) : -1 };
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => undefined);
    return p;
  }
}
