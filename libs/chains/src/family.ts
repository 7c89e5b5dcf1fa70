// The interface every chain family implements (architecture › Chain families). A family is a
// folder under libs/chains/src/ (evm/, sui/; solana/ and tron/ hold their codec and derivation
// until their watchers land) and one row of the table in families.ts; nothing outside those
// folders branches on a family's name.
import type { DataSource } from 'typeorm';
import type { ManualReason } from '@svc/domain';
import type { ObservedTransfer, TransferSink } from './observed-transfer';
import type { ChainConfig, TokenConfig } from './registry';
import type { ChainWatcher, WatchSet } from './watch/chain-watcher';
import type { ExpiryHolds } from './watch/expiry-passes';
import type { WalletRequest, WalletRequestInput } from './wallet-links';

/** Parse, format and compare a family's addresses, transaction ids and token ids. */
export interface FamilyCodec {
  /** The watch-set form of an address (what watchers compare); null when it is not one of this family. */
  watchAddress(address: string): string | null;
  /** The spelling a deposit address is stored with; null when it is not one of this family. */
  depositAddressForm(address: string): string | null;
  /** A settlement address as it is stored (money contract › Settlement addresses), or what the chain wants. */
  parseSettlementAddress(chain: string, raw: string): { address: string } | { error: string };
  /**
   * Whether two spellings are the same address of this family (EVM checksum case, Sui's short
   * form); false when either is not one. The signer's destination check compares with it.
   */
  sameAddress(a: string, b: string): boolean;
  /** Token contract / coin type / mint equality. */
  sameToken(a: string, b: string): boolean;
  /** The stored spelling of a transaction id (hash, digest or signature). */
  normalizeTxId(txId: string): string;
  /** The shape of a token id in SVC_CHAINS_FILE, so a contract pasted under the wrong chain fails at start-up. */
  readonly tokenIdFormat: { pattern: RegExp; description: string };
}

/**
 * BIP-32 account material of the seed, in the process that signs (apps/signer). The seed itself
 * never leaves that process: families derive what they publish from this.
 */
export interface SeedMaterial {
  /** The SLIP-0010 ed25519 node of an all-hardened path given as its indexes (cached per path). */
  ed25519(indexes: readonly number[]): { key: Buffer; chainCode: Buffer };
  /** The neutered extended public key (xpub) of a secp256k1 BIP-32 path such as m/44'/60'/0'/0. */
  xpub(path: string): string;
}

/**
 * How a family's deposit addresses are made (issue 19 › Keys). `xpub`: from the account's extended
 * public key by public derivation of the last, non-hardened level, so the API needs only the xpub
 * the signer published. `pool`: every level is hardened (ed25519), so the signer derives addresses
 * ahead into a pool that the API claims from.
 */
export type DepositAddressScheme =
  | {
      type: 'xpub';
      /** the account path whose child i is deposit address i */
      accountPath: string;
      /** deposit address i from the account xpub (public derivation) */
      address(xpub: string, index: number): string;
    }
  | {
      type: 'pool';
      /** deposit address i from the seed (signer only) */
      derive(seed: SeedMaterial, index: number): string;
    };

/** What a family's watcher is built with (the listener's WatchersService). */
export interface WatcherDeps {
  db: DataSource;
  sink: TransferSink;
  watchSet: WatchSet;
  /** the service clock, for health timestamps and the pass the expiry job waits for */
  now: () => Date;
  /** the payments whose expiry waits for this watcher's next pass (left out: every watched address counts) */
  expiry?: ExpiryHolds;
  /**
   * The dev clock is on: a pass counts from when it began on that clock (runtime contract › Dev
   * clock; devnet block times do not follow it). Otherwise a pass never counts from later than
   * its head block's timestamp, so a node that is behind cannot let a payment expire early.
   */
  devClock?: boolean;
}

export interface ChainTransactionRead {
  /** false when no configured endpoint knows the transaction (or it is not final yet) */
  found: boolean;
  /** false for a failed transaction: it moved nothing */
  succeeded: boolean;
  /** every transfer the transaction made, to any address, in any token */
  transfers: ObservedTransfer[];
}

/** Reads one transaction's transfers on a chain of one family (recovery). */
export interface ChainTransferReader {
  read(cfg: ChainConfig, txId: string): Promise<ChainTransactionRead>;
}

/** No endpoint answered: the chain data could not be read (not a statement about the transaction). */
export class ChainUnavailableError extends Error {}

/**
 * How money leaves a family's addresses through the outbound engine (docs/money-out.md › Rails):
 * the engine signs on a family whose row has this, and calls the family's rail (libs/outbound's
 * OUTBOUND_RAILS, the same keys) for the quote, the signed bytes, the broadcast, the status and
 * the fence's expiry. `feeFunding` says who pays the network fee of a token transfer: `gas_top_up`
 * (EVM: the gas tank sends the sender exactly the fee first, a transaction of its own) or
 * `sponsored` (Sui: the gas tank is the transaction's gas owner; no second transaction exists).
 */
export interface OutboundSupport {
  feeFunding: 'gas_top_up' | 'sponsored';
  /** whether the native coin is forwarded by sweeps (Sui: no, spec › native SUI is paid out by hand) */
  sweepsNative: boolean;
  /** the reason a sweep of the native coin is `manual_required` when `sweepsNative` is false */
  nativeManualReason?: ManualReason;
}

/**
 * One address of the seed that the seedless processes (the API) must know (issue 19 › Keys), e.g.
 * the gas tank: the signer publishes `publish(seed)` under `path` in account_xpubs (an xpub where
 * public derivation exists, else the address itself), and `address` reads it back.
 */
export interface PublishedAccountAddress {
  readonly path: string;
  publish(seed: SeedMaterial): string;
  address(published: string): string;
}

/**
 * How a workspace's refund wallet address on a family is made from its refund-wallet index (the
 * same index on every family; money contract › Refunds 4). `xpub`: public derivation from the
 * account xpub the signer published, so the API allocates it. `seed`: only the signer can derive
 * it (ed25519): the signer writes the row and the API lists what is there.
 */
export type RefundWalletScheme =
  | { type: 'xpub'; accountPath: string; address(xpub: string, index: number): string }
  | { type: 'seed'; derive(seed: SeedMaterial, index: number): string };

export interface ChainFamily {
  readonly kind: string;
  readonly codec: FamilyCodec;
  readonly depositAddresses: DepositAddressScheme;
  /**
   * BIP-32 account paths whose xpubs the signer publishes for the seedless processes (the deposit
   * account of an xpub family, and e.g. EVM's gas tank and refund wallets, whose addresses the API shows).
   */
  readonly publicAccountPaths: readonly string[];
  /** The family's watcher, or null while it has none (deposits on it are not detected). */
  createWatcher: ((cfg: ChainConfig, deps: WatcherDeps, tuning?: Record<string, unknown>) => ChainWatcher) | null;
  /** The recovery reader, or null while it has none. */
  transferReader: ChainTransferReader | null;
  /** Balance of an address in a token (atomic), or null while the family cannot read it. */
  readBalance: ((cfg: ChainConfig, address: string, token: TokenConfig) => Promise<bigint>) | null;
  /** The hosted page's QR payload and wallet link (its <family>/wallet-link.ts; apps/pay reads them through wallet-links.ts). */
  walletRequest(input: WalletRequestInput): WalletRequest;
  /** Payouts and refunds through the outbound engine, or null while money on the family leaves by hand. */
  readonly outbound: OutboundSupport | null;
  /** The operator's gas tank on the family's rails (refunds to it are refused), or null while it has none. */
  readonly gasTank: PublishedAccountAddress | null;
  /** The workspaces' refund wallets on the family, or null while refunds on it have none. */
  readonly refundWallet: RefundWalletScheme | null;
  /**
   * Whether an address holds contract code (a refund's default destination is refused then: money
   * contract › Refunds 3), or null when the family has no such notion.
   */
  holdsCode: ((cfg: ChainConfig, address: string) => Promise<boolean>) | null;
}
