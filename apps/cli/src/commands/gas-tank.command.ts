import * as fs from 'node:fs';
import { ChainConfig, ChainRegistry, EvmAccounts, SuiAccounts, generateMnemonic } from '@svc/chains';
import { resolveMnemonic, SvcConfig } from '@svc/config';
import { formatAtomic } from '@svc/domain';
import { EvmRail, feePolicy, JsonRpcClient, SUI_COIN_TYPE, SuiNode } from '@svc/signer';
import { parseOptions } from '../cli-args';
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
 * runtime contract › Operator CLI › `gas-tank [--json]`: per EVM (chain, network) of the registry
 * the gas tank's address (m/44'/60'/1'/0/0 of the seed: one address on every EVM chain) and its
 * native balance, and per Sui rail the Sui gas tank (m/44'/784'/1'/0'/0', the sponsor of Sui
 * payouts) and its SUI, read from the registry's RPC URLs. The address is derived from the seed; no
 * private key is ever made here. `--json` prints one JSON line per rail (JSON lines). Outside
 * production without SVC_CHAINS_FILE, the devnet's chains file of `npm run dev` is read (as dev:pay does).
 */
export class GasTankCommand {
  constructor(private readonly config: SvcConfig) {}

  async run({ json }: GasTankArgs): Promise<void> {
    const config = resolveMnemonic(this.config, generateMnemonic);
    const address = new EvmAccounts(config.mnemonic as string).address('gas_tank', 0);
    const devnet = config.env !== 'production' && fs.existsSync(DEV_CHAINS_FILE) ? DEV_CHAINS_FILE : undefined;
    const all = ChainRegistry.fromFile(config.chainsFile ?? devnet).all();
    const rails = all.filter((c) => c.kind === 'evm');
    const suiRails = all.filter((c) => c.kind === 'sui');
    const suiAddress = suiRails.length > 0 ? new SuiAccounts(config.mnemonic as string).address('gas_tank', 0) : '';
    const lines = await Promise.all([
      ...rails.map((rail) => this.line(rail, address)),
      ...suiRails.map((rail) => this.line(rail, suiAddress)),
    ]);
    if (json) {
      process.stdout.write(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
      return;
    }
    process.stdout.write(`Gas tank ${address} (the same address on every EVM chain):\n`);
    for (const l of lines) {
      if (l.address !== address) continue;
      const balance = l.balance !== null ? `${l.balance} ${l.symbol ?? ''}`.trim() : `unknown (${l.error})`;
      process.stdout.write(`  ${`${l.chain}/${l.network}`.padEnd(24)} ${balance}\n`);
    }
    for (const l of lines.filter((x) => x.address === suiAddress)) {
      const balance = l.balance !== null ? `${l.balance} ${l.symbol ?? ''}`.trim() : `unknown (${l.error})`;
      process.stdout.write(`Sui gas tank ${l.address} on ${l.chain}/${l.network}: ${balance}\n`);
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
    try {
      const atomic =
        rail.kind === 'sui'
          ? await new SuiNode(rail.rpcUrls[0]).balance(address, SUI_COIN_TYPE)
          : await this.evmBalance(rail, address);
      return {
        ...out,
        balanceAtomic: atomic.toString(),
        balance: native ? formatAtomic(atomic, native.decimals) : null,
      };
    } catch (err) {
      return { ...out, error: (err as Error).message.slice(0, 300) };
    }
  }

  private evmBalance(rail: ChainConfig, address: string): Promise<bigint> {
    return new EvmRail(rail, new JsonRpcClient(rail.rpcUrls, 10_000), feePolicy()).nativeBalance(address, 'latest');
  }
}
