import * as fs from 'node:fs';
import type { DataSource } from 'typeorm';
import {
  ChainConfig,
  ChainKind,
  ChainRegistry,
  family,
  gasTankAddress,
  loadAccountXpubs,
  TokenConfig,
} from '@svc/chains';
import { SvcConfig } from '@svc/config';
import { formatAtomic } from '@svc/domain';
import { parseOptions } from '../cli-args';
import { connect } from './database';
import { DEV_CHAINS_FILE } from './dev-pay.command';

export interface GasTankArgs {
  json: boolean;
}

export function parseGasTankArgs(args: string[]): GasTankArgs {
  const values = parseOptions('gas-tank', args, { json: { type: 'boolean' } });
  return { json: values.json === true };
}

/** One line of `gas-tank --json`. */
export interface GasTankLine {
  chain: string;
  network: string;
  address: string;
  /** the rail's native coin */
  symbol: string | null;
  decimals: number | null;
  /** token units; null when the node could not be read (`error` says why) */
  balance: string | null;
  balanceAtomic: string | null;
  error: string | null;
}

/**
 * runtime contract › Operator CLI › `gas-tank [--json]`: per (chain, network) of the registry whose
 * family has a gas tank (the family table's `gasTank`: EVM m/44'/60'/1'/0/0, one address on every
 * EVM chain; Sui m/44'/784'/1'/0'/0', the sponsor of Sui payouts) the tank's address and its native
 * balance, read through the family's balance read from the registry's RPC URLs. The address comes
 * from what the signer published in the database (an xpub, or the Sui tank's address): the CLI
 * reads no seed (issue 19 › Keys). `--json` prints one JSON line per rail
 * (JSON lines). Outside production without SVC_CHAINS_FILE, the devnet's chains file of `npm run dev`
 * is read (as dev:pay does).
 */
export class GasTankCommand {
  constructor(
    private readonly db: DataSource,
    private readonly config: SvcConfig,
  ) {}

  async run({ json }: GasTankArgs): Promise<void> {
    const config = this.config;
    const published = await loadAccountXpubs((await connect(this.db)).manager);
    const devnet = config.env !== 'production' && fs.existsSync(DEV_CHAINS_FILE) ? DEV_CHAINS_FILE : undefined;
    const tanks = new Map<ChainKind, string | null>();
    const tankOf = (kind: ChainKind): string | null => {
      if (!tanks.has(kind))
        tanks.set(
          kind,
          gasTankAddress(kind, (path) => {
            const value = published.get(path);
            if (!value) throw new GasTankUnknownError();
            return value;
          }),
        );
      return tanks.get(kind) ?? null;
    };
    const rails = ChainRegistry.fromFile(config.chainsFile ?? devnet)
      .all()
      .flatMap((rail) => {
        const address = tankOf(rail.kind);
        return address === null ? [] : [{ rail, address }];
      });
    const lines = await Promise.all(rails.map(({ rail, address }) => this.line(rail, address)));
    if (json) {
      process.stdout.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
      return;
    }
    // a tank shared by several rails (one address on every chain of its family) is printed once with its rails
    for (const address of new Set(lines.map((l) => l.address))) {
      const of = lines.filter((l) => l.address === address);
      const balance = (l: GasTankLine) =>
        l.balance !== null ? `${l.balance} ${l.symbol ?? ''}`.trim() : `unknown (${l.error})`;
      const kind = rails.find((r) => r.address === address)?.rail.kind ?? '';
      if (of.length === 1) {
        process.stdout.write(`Gas tank (${kind}) ${address} on ${of[0].chain}/${of[0].network}: ${balance(of[0])}\n`);
        continue;
      }
      process.stdout.write(`Gas tank (${kind}) ${address}, the same address on each of these chains:\n`);
      for (const l of of) process.stdout.write(`  ${`${l.chain}/${l.network}`.padEnd(24)} ${balance(l)}\n`);
    }
  }

  private async line(rail: ChainConfig, address: string): Promise<GasTankLine> {
    const native = rail.tokens.find((t) => t.native) ?? null;
    const out: GasTankLine = {
      chain: rail.chain,
      network: rail.network,
      address,
      symbol: native?.symbol ?? null,
      decimals: native?.decimals ?? null,
      balance: null,
      balanceAtomic: null,
      error: null,
    };
    if (rail.rpcUrls.length === 0) return { ...out, error: 'no rpcUrls in the chain registry' };
    const read = family(rail.kind).readBalance;
    if (!read) return { ...out, error: `balances cannot be read on ${rail.kind} chains yet` };
    try {
      const coin: TokenConfig = native ?? { symbol: '', address: null, decimals: 0, native: true, watched: false };
      const atomic = await read(rail, address, coin);
      return {
        ...out,
        balanceAtomic: atomic.toString(),
        balance: native ? formatAtomic(atomic, native.decimals) : null,
      };
    } catch (err) {
      return { ...out, error: (err as Error).message.slice(0, 300) };
    }
  }
}

/** The signer has never run on this database: it publishes the gas tanks' public keys at start. */
export class GasTankUnknownError extends Error {
  constructor() {
    super('the signer has not published the gas tanks yet: start it once (npm run start:signer)');
  }
}
