// The conformance suite every chain family passes against its devnet (issue 19 › The seam): one
// table of cases, run by one spec file per family (e2e/conformance.<family>.e2e-spec.ts) that only
// says how to reach its devnet. Inbound rows today: codec round trips, the watcher finds a
// transfer, recovery reads it. The outbound rows (a sweep and a refund complete, a fence expires)
// join when the money engine's rail moves into the families.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import {
  ChainConfig,
  ChainKind,
  ChainWatcher,
  DepositAddressDeriver,
  family,
  generateMnemonic,
  ObservedTransfer,
} from '@svc/chains';
import { createDataSource } from '@svc/db';
import { createTestDatabase, dropTestDatabase } from './test-app';

/** How a family's spec reaches its devnet. */
export interface FamilyDevnet {
  kind: ChainKind;
  /** the registry entry of the devnet's rail, with its RPC URLs */
  cfg: ChainConfig;
  /** a watched token of the rail (not the native coin) */
  token: { symbol: string; address: string };
  /** sends `atomic` of the token to `to`; resolves with the transaction id once it is final */
  send(to: string, atomic: bigint): Promise<string>;
  stop(): Promise<void>;
}

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
  });
}
