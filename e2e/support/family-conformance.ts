// The conformance suite every chain family passes against its devnet (issue 19 › The seam): one
// table of cases, run by one spec file per family (e2e/conformance.<family>.e2e-spec.ts) that only
// says how to reach its devnet. Inbound rows: codec round trips, the watcher finds a transfer,
// recovery reads it. Outbound rows, for a family with an outbound rail (the family table's
// `outbound`; the spec says how to fund and how to spend a fence behind the service's back): a
// token sweep and a token refund complete through the engine (OutboundService, the family's rail),
// and a fence expires — an attempt signed and stored, then its fence spent by a transaction the
// service did not sign, is followed by a new attempt, and exactly one transfer arrives.
import { ENGINE_SUITES_PAY_ANY_DESTINATION } from './engine-destinations';
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import {
  ChainConfig,
  ChainKind,
  ChainRegistry,
  ChainWatcher,
  DepositAddressDeriver,
  family,
  generateMnemonic,
  ObservedTransfer,
  TokenConfig,
} from '@svc/chains';
import { randomUUID } from 'node:crypto';
import type { SignerCrashPoint } from '@svc/config';
import { createDataSource } from '@svc/db';
import type { OutboundFence } from '@svc/domain';
import {
  depositKey,
  EvmKeyring,
  OutboundService,
  OutboundTransfer,
  refundWalletKey,
  SignerKeyRef,
  SignerOptions,
  SuiKeyring,
} from '@svc/outbound';
import { createTestDatabase, dropTestDatabase } from './test-app';

/** What the outbound rows need from a family's devnet. */
export interface FamilyOutbound {
  registry: ChainRegistry;
  /** sends `atomic` of the native coin to `to` from the devnet's payer; final when it resolves */
  sendNative(to: string, atomic: bigint): Promise<void>;
  /** how much native coin the gas tank gets, twice (EVM: top-ups and their gas; Sui: two gas coins) */
  tankFunding: bigint;
  /** the chain moves on (EVM: a block; Sui: nothing, a checkpoint certifies at once) */
  mine(): Promise<void>;
  /** another address to send to (a fresh one: it holds nothing) */
  freshAddress(): string;
  /**
   * A transaction the service did not sign, from `address` (key `key` of `mnemonic`), that spends
   * the fence `fence` of a stored attempt (EVM: its nonce; Sui: one of its input coins).
   */
  spendFence(mnemonic: string, key: SignerKeyRef, address: string, fence: OutboundFence): Promise<void>;
}

/** How a family's spec reaches its devnet. */
export interface FamilyDevnet {
  kind: ChainKind;
  /** the registry entry of the devnet's rail, with its RPC URLs */
  cfg: ChainConfig;
  /** a watched token of the rail (not the native coin) */
  token: { symbol: string; address: string };
  /** sends `atomic` of the token to `to`; resolves with the transaction id once it is final */
  send(to: string, atomic: bigint): Promise<string>;
  /** the outbound rows' needs; absent: the family's outbound rows are skipped */
  outbound?: FamilyOutbound;
  stop(): Promise<void>;
}

class Stopped extends Error {}

async function waitFor<T>(what: string, probe: () => T | null | undefined | false, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function familyConformance(name: string, start: () => Promise<FamilyDevnet>): void {
  describe(`${name}: chain family conformance`, () => {
    let devnet: FamilyDevnet;
    let database: { name: string; url: string };
    let db: DataSource;
    const deriver = new DepositAddressDeriver(generateMnemonic());
    const f = () => family(devnet.kind);

    beforeAll(async () => {
      devnet = await start();
      database = await createTestDatabase('svc_e2e_conformance');
      db = createDataSource(database.url, 4);
      await db.initialize();
      await db.runMigrations({ transaction: 'all' });
    }, 120_000);

    afterAll(async () => {
      await db?.destroy();
      if (database) await dropTestDatabase(database.name);
      await devnet?.stop();
    });

    test('codec: a derived deposit address round-trips through its watch and stored forms', () => {
      const { codec } = f();
      for (let i = 0; i < 20; i++) {
        const address = deriver.derive(devnet.kind, i);
        expect(codec.depositAddressForm(address)).toBe(address);
        const watched = codec.watchAddress(address)!;
        expect(watched).not.toBeNull();
        expect(codec.watchAddress(watched)).toBe(watched);
        expect(codec.depositAddressForm(watched)).toBe(address);
        expect(codec.watchAddress(` ${address.toUpperCase().replace(/^0X/, '0x')} `)).toBe(watched);
      }
      expect(codec.watchAddress('')).toBeNull();
    });

    test('codec: token ids compare equal to themselves and to their own spelling variants, not to others', () => {
      const { codec } = f();
      const id = devnet.token.address;
      expect(codec.sameToken(id, id)).toBe(true);
      expect(codec.tokenIdFormat.pattern.test(id)).toBe(true);
      const other = devnet.cfg.tokens.find((t) => t.address && t.address !== id)?.address;
      if (other) expect(codec.sameToken(id, other)).toBe(false);
    });

    test('codec: transaction ids normalise idempotently; a settlement address parses to its stored form', () => {
      const { codec } = f();
      const address = deriver.derive(devnet.kind, 99);
      const parsed = codec.parseSettlementAddress(devnet.cfg.chain, address);
      expect(parsed).toEqual({ address: expect.any(String) });
      const stored = (parsed as { address: string }).address;
      expect(codec.parseSettlementAddress(devnet.cfg.chain, stored)).toEqual({ address: stored });
      expect(codec.parseSettlementAddress(devnet.cfg.chain, 'not an address')).toEqual({ error: expect.any(String) });
      const id = ' Ab12 ';
      expect(codec.normalizeTxId(codec.normalizeTxId(id))).toBe(codec.normalizeTxId(id));
    });

    let sent: { txId: string; to: string; atomic: bigint } | null = null;

    test('the watcher finds a transfer to a watched address, in the token, for the amount sent', async () => {
      const create = f().createWatcher;
      expect(create).not.toBeNull();
      const to = deriver.derive(devnet.kind, 7);
      const watched = f().codec.watchAddress(to)!;
      const seen: ObservedTransfer[] = [];
      const watcher: ChainWatcher = create!(
        devnet.cfg,
        {
          db,
          sink: { credit: async (ts) => void seen.push(...ts) },
          watchSet: { addresses: async () => new Set([watched]) },
          now: () => new Date(),
        },
        { pollIntervalMs: 25, claimRetryMs: 100, backoffBaseMs: 25, backoffMaxMs: 250 },
      );
      watcher.start();
      try {
        await waitFor('the watcher to open its cursor', () => watcher.status().nextBlock !== null);
        const atomic = 1_234_567n;
        const txId = await devnet.send(to, atomic);
        const hit = await waitFor('the watcher to see the transfer', () =>
          seen.find((t) => f().codec.normalizeTxId(t.txHash) === f().codec.normalizeTxId(txId)),
        );
        expect(f().codec.watchAddress(hit.toAddress)).toBe(watched);
        expect(hit.amountAtomic).toBe(atomic);
        expect(f().codec.sameToken(hit.tokenAddress!, devnet.token.address)).toBe(true);
        sent = { txId, to, atomic };
      } finally {
        await watcher.stop();
      }
    });

    test('recovery reads the same transfer from chain data by its transaction id', async () => {
      expect(sent).not.toBeNull();
      const reader = f().transferReader;
      expect(reader).not.toBeNull();
      const read = await reader!.read(devnet.cfg, f().codec.normalizeTxId(sent!.txId));
      expect(read).toMatchObject({ found: true, succeeded: true });
      const mine = read.transfers.filter(
        (t) => f().codec.watchAddress(t.toAddress) === f().codec.watchAddress(sent!.to),
      );
      expect(mine.map((t) => t.amountAtomic)).toEqual([sent!.atomic]);
      expect(f().codec.sameToken(mine[0].tokenAddress!, devnet.token.address)).toBe(true);
      expect(mine[0].confirmations).toBeGreaterThanOrEqual(1);
    });

    test('recovery says "not found" for a transaction the chain does not know', async () => {
      const unknown = devnet.kind === 'evm' ? `0x${'ab'.repeat(32)}` : '11111111111111111111111111111111';
      const read = await f().transferReader!.read(devnet.cfg, unknown);
      expect(read.found).toBe(false);
    });

    // ---- outbound rows ----------------------------------------------------------------------

    const outboundTest = (title: string, fn: () => Promise<void>) =>
      test(title, async () => {
        if (!f().outbound) {
          expect(devnet.outbound).toBeUndefined(); // the family signs nothing: its spec offers no hooks either
          return;
        }
        expect(devnet.outbound).toBeDefined();
        await fn();
      });

    const mnemonic = generateMnemonic();
    const signerOptions: SignerOptions = {};
    let signer: OutboundService | null = null;
    const out = () => {
      signer ??= new OutboundService(
        db,
        devnet.outbound!.registry,
        new EvmKeyring(mnemonic),
        { now: () => new Date() },
        // legs to fresh addresses with no sweep or refund rows behind them: how a family signs is
        // tested here, what it may pay through the payout process (e2e/destinations, payouts.sui)
        Object.assign(signerOptions, {
          suiKeyring: new SuiKeyring(mnemonic),
          destinations: ENGINE_SUITES_PAY_ANY_DESTINATION,
        }),
      );
      return signer;
    };
    const rail = () => out().rail(devnet.cfg.chain, devnet.cfg.network);
    const token = (): TokenConfig => devnet.cfg.tokens.find((t) => t.symbol === devnet.token.symbol)!;
    const received = async (to: string) => rail().balance(rail().parse(to, 'to'), token());
    let tankFunded = false;
    const fundTank = async () => {
      if (tankFunded) return;
      const { address } = await rail().gasTank();
      await devnet.outbound!.sendNative(address, devnet.outbound!.tankFunding);
      await devnet.outbound!.sendNative(address, devnet.outbound!.tankFunding);
      tankFunded = true;
    };
    const settle = async (t: OutboundTransfer): Promise<OutboundTransfer> => {
      let last = t;
      for (let i = 0; i < 20 && last.state !== 'completed' && last.state !== 'failed'; i++) {
        last = await out().advance(t.id);
        await devnet.outbound!.mine();
      }
      return last;
    };

    outboundTest('outbound: a token sweep completes — all of the deposit moves, nothing stays', async () => {
      await fundTank();
      const deposit = await rail().address(depositKey(11));
      await devnet.send(deposit, 2_500_000n);
      const to = devnet.outbound!.freshAddress();
      const planned = await out().planTokenSweep({
        chain: devnet.cfg.chain,
        network: devnet.cfg.network,
        sweepId: randomUUID(),
        depositIndex: 11n,
        to,
        token: devnet.token.address,
      });
      const done = await settle(planned);
      expect(done).toMatchObject({ state: 'completed', amountAtomic: 2_500_000n });
      expect(await received(to)).toBe(2_500_000n);
      expect(await rail().balance(deposit, token())).toBe(0n);
    });

    outboundTest('outbound: a token refund completes — exactly the amount arrives from the refund wallet', async () => {
      await fundTank();
      const wallet = await rail().address(refundWalletKey(3));
      await devnet.send(wallet, 3_000_000n);
      const to = devnet.outbound!.freshAddress();
      const planned = await out().planRefund({
        chain: devnet.cfg.chain,
        network: devnet.cfg.network,
        from: refundWalletKey(3),
        to,
        token: devnet.token.address,
        refundId: randomUUID(),
        amountAtomic: 1_250_000n,
      });
      const done = await settle(planned);
      expect(done.state).toBe('completed');
      expect(await received(to)).toBe(1_250_000n);
      expect(await rail().balance(wallet, token())).toBe(1_750_000n);
    });

    outboundTest(
      'outbound: a fence expires — spent behind our back, a new attempt follows; one transfer arrives',
      async () => {
        await fundTank();
        const deposit = await rail().address(depositKey(12));
        await devnet.send(deposit, 4_000_000n);
        const to = devnet.outbound!.freshAddress();
        const planned = await out().planTokenSweep({
          chain: devnet.cfg.chain,
          network: devnet.cfg.network,
          sweepId: randomUUID(),
          depositIndex: 12n,
          to,
          token: devnet.token.address,
        });
        // the signer stops right after it stored a signed attempt (EVM: the gas top-up's first, then the sweep's)
        signerOptions.crashAt = 'after_sign';
        signerOptions.onCrash = (_point: SignerCrashPoint) => {
          throw new Stopped('stopped after signing');
        };
        let signed: OutboundTransfer = planned;
        try {
          for (let i = 0; i < 20 && signed.state !== 'signed'; i++) {
            await out()
              .advance(planned.id)
              .catch((err: unknown) => {
                if (!(err instanceof Stopped)) throw err;
              });
            signed = await out().get(planned.id);
            if (signed.state !== 'signed') await devnet.outbound!.mine();
          }
        } finally {
          signerOptions.crashAt = null;
          signerOptions.onCrash = undefined;
        }
        expect(signed.state).toBe('signed');
        const [stored] = await db.query('SELECT fence FROM outbound_attempts WHERE transaction_id = $1', [planned.id]);
        await devnet.outbound!.spendFence(mnemonic, depositKey(12), deposit, stored.fence as OutboundFence);
        await devnet.outbound!.mine();

        const done = await settle(signed);
        expect(done.state).toBe('completed');
        const [{ n }] = await db.query('SELECT count(*)::int AS n FROM outbound_attempts WHERE transaction_id = $1', [
          planned.id,
        ]);
        expect(n).toBeGreaterThanOrEqual(2);
        expect(await received(to)).toBe(4_000_000n);
        expect(await rail().balance(deposit, token())).toBe(0n);
      },
    );
  });
}
