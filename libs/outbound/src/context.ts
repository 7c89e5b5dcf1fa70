// What every part of the signer shares: the database, the chains, the keys, the clock, the nodes.
import type { DataSource, EntityManager } from 'typeorm';
import {
  CHAIN_KINDS,
  EvmRpc,
  family,
  maxFeePerGasOf,
  type ChainConfig,
  type ChainRegistry,
  type EvmRpcClient,
} from '@svc/chains';
import type { Network } from '@svc/domain';
import type { SignerCrashPoint } from '@svc/config';
import { FeePolicy, feePolicy } from './fees/fees';
import type { EvmKeyring } from './keys/keyring';
import type { SuiKeyring } from './keys/sui-keyring';
import { EvmRail } from './rpc/evm-rail';
import { OutboundRequestError } from './outbound/outbound.errors';
import {
  DestinationCheckOptions,
  DestinationVerdict,
  LegToVerify,
  verifyLegDestination,
  verifyLegDestinations,
} from './outbound/destination-check';
import { preparedStatement } from '@svc/core';
import { OutboundRepository } from './outbound/outbound.repository';
import { CommitmentsReads } from './outbound/pay-check';
import type { OutboundTransfer } from './outbound/outbound-transfer';
import type { HandledPurpose, OutboundPurposeHandler } from './outbound/purpose-handler';

/** Time comes from one injected clock (the dev clock in tests), never `new Date()` in logic. */
export interface Clock {
  now(): Date;
}

export interface SignerLogger {
  log(message: string): void;
  warn(message: string): void;
  /** a refusal to sign (a destination that does not verify); warn when absent */
  error?(message: string): void;
}

/**
 * Decides, just before a leg is signed, whether its destination is one the API authorised
 * (docs/money-out.md › Destinations). The service's is `macDestinations` (SVC_DESTINATION_KEY).
 */
export interface DestinationGuard {
  verify(m: EntityManager, leg: LegToVerify): Promise<DestinationVerdict>;
  /** `verify` of several legs, in the order given (a batch's sign decisions); without it, `verify` one at a time. */
  verifyMany?(m: EntityManager, legs: LegToVerify[]): Promise<DestinationVerdict[]>;
}

/** The guard of every signing process: MACs under SVC_DESTINATION_KEY, cool-downs on the database clock. */
export function macDestinations(o: DestinationCheckOptions): DestinationGuard {
  if (o.key.length < 32) throw new Error('SVC_DESTINATION_KEY must be 32 bytes');
  return {
    verify: (m, leg) => verifyLegDestination(m, leg, o),
    verifyMany: (m, legs) => verifyLegDestinations(m, legs, o),
  };
}

export interface SignerOptions {
  /** Required: what the signer may pay (macDestinations with SVC_DESTINATION_KEY). */
  destinations?: DestinationGuard;
  /** Fee policy overrides, for every chain or per chain. */
  feePolicy?: Partial<FeePolicy> | ((chain: ChainConfig) => Partial<FeePolicy>);
  /** The JSON-RPC client of a chain (default: EvmRpc over the registry's rpcUrls). */
  rpc?: (chain: ChainConfig) => EvmRpcClient;
  /** The seed's Sui keys: without them the signer does not send on Sui rails. */
  suiKeyring?: SuiKeyring;
  /** Gas units of a sponsored Sui transfer (its budget is this × the reference gas price). */
  suiGasUnits?: bigint;
  /** Test only (SvcConfig.signerCrashAt): SIGKILL this process at that step. */
  crashAt?: SignerCrashPoint | null;
  /** Test only: what happens at `crashAt` instead of the SIGKILL (e.g. throw, to stop an in-process step there). */
  onCrash?: (point: SignerCrashPoint) => void;
  logger?: SignerLogger;
}

const SILENT: SignerLogger = { log: () => undefined, warn: () => undefined };

/** The guard of a process that cannot sign anyway (no seed): nothing verifies. */
const REFUSE_EVERY_DESTINATION: DestinationGuard = {
  verify: () => Promise.resolve({ ok: false, reason: 'this process holds no seed and signs nothing' }),
};

export class SignerContext {
  readonly repo = new OutboundRepository();
  /** The pay checks' commitment reads, those of one turn of the event loop in one statement (pay-check.ts). */
  readonly commitmentsReads = new CommitmentsReads(this);
  readonly logger: SignerLogger;
  readonly destinations: DestinationGuard;
  private readonly rails = new Map<string, EvmRail>();
  private readonly handlers = new Map<HandledPurpose, OutboundPurposeHandler>();
  private readonly senderQueues = new Map<string, Promise<void>>();

  constructor(
    readonly db: DataSource,
    readonly registry: ChainRegistry,
    readonly keyring: EvmKeyring,
    readonly clock: Clock,
    readonly options: SignerOptions = {},
  ) {
    this.logger = options.logger ?? SILENT;
    // issue 19 › Keys: no signer without the check of what it pays (a seedless planner signs nothing)
    if (!options.destinations && keyring.canSign !== false) {
      throw new Error('the signer needs a destination guard (SVC_DESTINATION_KEY)');
    }
    this.destinations = options.destinations ?? REFUSE_EVERY_DESTINATION;
  }

  now(): Date {
    return this.clock.now();
  }

  /**
   * Runs `fn` after every earlier `serial` call of the same sender in this process has settled:
   * one sender's steps never overlap here (a run advances different senders side by side,
   * rail-runner.ts). Never call it for a sender from inside a step already serialised on it.
   */
  serial<T>(chain: string, network: Network, sender: string, fn: () => Promise<T>): Promise<T> {
    const key = `${chain}/${network}/${sender.toLowerCase()}`;
    const next = (this.senderQueues.get(key) ?? Promise.resolve()).then(fn);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.senderQueues.set(key, tail);
    void tail.then(() => {
      if (this.senderQueues.get(key) === tail) this.senderQueues.delete(key);
    });
    return next;
  }

  /** The sweep or refund side of a leg, called inside the engine's transactions (purpose-handler.ts). */
  handle(purpose: HandledPurpose, handler: OutboundPurposeHandler): void {
    this.handlers.set(purpose, handler);
  }

  /**
   * Writes the transfer and lets its purpose follow, in the same db transaction. `newestTxHash`:
   * the hash of its newest stored attempt when the caller knows it (null: none); else it is read.
   */
  async write(m: EntityManager, t: OutboundTransfer, newestTxHash?: string | null): Promise<OutboundTransfer> {
    await this.repo.save(m, t);
    return this.follow(m, t, newestTxHash);
  }

  /** The purpose's side of `write`, for a transfer the caller has just written itself (e.g. several in one statement). */
  async follow(m: EntityManager, t: OutboundTransfer, newestTxHash?: string | null): Promise<OutboundTransfer> {
    const handler = t.purpose === 'gas' ? undefined : this.handlers.get(t.purpose);
    if (handler) {
      const [row] = t.txHash
        ? [{ tx_hash: t.txHash }]
        : newestTxHash !== undefined
          ? [newestTxHash === null ? undefined : { tx_hash: newestTxHash }]
          : await preparedStatement(
              m,
              'outbound_newest_hash',
              'SELECT tx_hash FROM outbound_attempts WHERE transaction_id = $1 ORDER BY attempt DESC LIMIT 1',
              [t.id],
            );
      await handler.changed(m, t, (row?.tx_hash as string | undefined) ?? null);
    }
    return t;
  }

  /**
   * The JSON-RPC rail of a registered (chain, network) with at least one RPC URL: the nonce-fenced
   * engine's (outbound-engine.ts), for the families whose fees are a gas top-up from the gas tank
   * (the family table's `outbound.feeFunding`); other families send through their own outbound rail.
   */
  rail(chain: string, network: Network): EvmRail {
    const key = `${chain}/${network}`;
    let rail = this.rails.get(key);
    if (rail) return rail;
    const config = this.registry.get(chain, network);
    if (!config) throw new OutboundRequestError(`${key} is not in the chain registry.`);
    if (family(config.kind).outbound?.feeFunding !== 'gas_top_up') {
      const kinds = CHAIN_KINDS.filter((k) => family(k).outbound?.feeFunding === 'gas_top_up');
      throw new OutboundRequestError(
        `${key} is a ${config.kind} chain; this rail sends on ${kinds.join(' and ')} chains.`,
      );
    }
    if (config.rpcUrls.length === 0 && !this.options.rpc) {
      throw new OutboundRequestError(`${key} has no rpcUrls in the chain registry.`);
    }
    const overrides =
      typeof this.options.feePolicy === 'function' ? this.options.feePolicy(config) : (this.options.feePolicy ?? {});
    const rpc = this.options.rpc ? this.options.rpc(config) : new EvmRpc(config.rpcUrls);
    // runtime contract › SVC_CHAINS_FILE: every rail has a fee cap (the chain's maxFeePerGas, else its default)
    rail = new EvmRail(config, rpc, feePolicy({ maxFeePerGas: maxFeePerGasOf(config), ...overrides }));
    this.rails.set(key, rail);
    return rail;
  }

  /** The test hook of the crash-safety tests: the process dies here as if killed from outside. */
  crashPoint(point: SignerCrashPoint): void {
    if (this.options.crashAt !== point) return;
    if (this.options.onCrash) this.options.onCrash(point);
    else process.kill(process.pid, 'SIGKILL');
  }
}
