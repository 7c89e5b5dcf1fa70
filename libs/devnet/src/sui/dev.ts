// The Sui rail of the local devnet (`npm run dev`): a SuiDevnet on a free port certifying a
// checkpoint a second, the dev payer holding SUI and the registry's sui/mainnet USDC (the devnet
// mints that coin type, so the service watches it unchanged), and the chains-file entry pointing
// the service's sui/mainnet at it. Funding others is done with signed transactions from the
// payer, so every coin they hold came through the same checks a payment does.
import { normalizeStructTag } from '@mysten/sui/utils';
import { DEV_SUI_PAYER } from './accounts';
import { SUI } from './chain';
import { MAINNET_USDC, SuiDevnet } from './sui-devnet';
import { SuiDevPayer } from './payer';

/** The USDC coin type of the devnet: the one the registry names for sui/mainnet. */
export const DEV_SUI_USDC = normalizeStructTag(MAINNET_USDC);

/** What the dev payer starts with: 1,000,000 SUI (9 decimals) and 1,000,000,000 USDC (6 decimals). */
export const DEV_SUI_PAYER_FUNDS = { sui: 1_000_000n * 10n ** 9n, usdc: 1_000_000_000n * 10n ** 6n };

/** A chains-file entry for sui/mainnet: built-in tokens (USDC, SUI, USDT) kept, only the endpoint set. */
export interface SuiChainsFileEntry {
  chain: 'sui';
  network: 'mainnet';
  kind: 'sui';
  rpcUrls: string[];
  confirmations: number;
  watched: boolean;
}

export interface DevSui {
  server: SuiDevnet;
  entry: SuiChainsFileEntry;
  /** the funded dev payer (DEV_SUI_PAYER) on this devnet */
  payer: SuiDevPayer;
  stop(): Promise<void>;
}

export async function startDevSui(opts: { checkpointIntervalMs?: number; port?: number } = {}): Promise<DevSui> {
  const server = await SuiDevnet.start(undefined, opts.port);
  server.chain.mint(DEV_SUI_PAYER.toSuiAddress(), SUI, DEV_SUI_PAYER_FUNDS.sui);
  server.chain.mint(DEV_SUI_PAYER.toSuiAddress(), DEV_SUI_USDC, DEV_SUI_PAYER_FUNDS.usdc);
  server.tick(opts.checkpointIntervalMs ?? 1000);
  return {
    server,
    // spec: Sui needs one confirmation (a certified checkpoint is final)
    entry: { chain: 'sui', network: 'mainnet', kind: 'sui', rpcUrls: [server.url], confirmations: 1, watched: true },
    payer: new SuiDevPayer(server.url, DEV_SUI_PAYER),
    stop: () => server.stop(),
  };
}

/** Sends `sui` MIST and `usdc` atomic USDC from the dev payer to `to`; returns the transaction digests. */
export async function fundDevSuiAccount(
  sui: DevSui,
  to: string,
  amounts: { sui: bigint; usdc: bigint },
): Promise<string[]> {
  const digests: string[] = [];
  for (const [type, amount] of [
    [SUI, amounts.sui],
    [DEV_SUI_USDC, amounts.usdc],
  ] as const) {
    if (amount <= 0n) continue;
    const sent = await sui.payer.pay(to, type, amount);
    if (!sent.success) throw new Error(`funding ${to} with ${type} failed on the Sui devnet: ${sent.error}`);
    digests.push(sent.digest);
  }
  return digests;
}
