// Locale-aware formatting shared by the server pages and the client island: Intl for numbers and
// dates; token amounts are formatted from their decimal strings so no digit is lost to a float.
// What the browser islands need (fill, dates, the countdown) lives in ./text, re-exported here.
export { fill, formatCountdown, formatDateTime } from './text';

/** Display names of the chains the registry knows (spec: Chains and tokens). */
const CHAIN_NAMES: Record<string, string> = {
  bnb: 'BNB Smart Chain',
  sui: 'Sui',
  arc: 'Arc',
  brokerchain: 'BrokerChain',
  base: 'Base',
  solana: 'Solana',
  tron: 'Tron',
};

export function chainName(chain: string): string {
  return CHAIN_NAMES[chain] ?? chain;
}

/** "BNB Smart Chain", or "BNB Smart Chain (testnet)" off mainnet. */
export function networkName(chain: string, network: string, testnetLabel: string): string {
  return network === 'testnet' ? `${chainName(chain)} (${testnetLabel})` : chainName(chain);
}

/**
 * A token amount in token units, every decimal kept: "1,234.5" (en), "1.234,5" (de). The integer
 * part goes through Intl as a BigInt (exact, with the locale's grouping); the fraction is appended
 * digit for digit after the locale's decimal separator, so no float ever touches the amount.
 */
export function formatUnits(units: string, locale: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(units);
  if (!m) return units;
  const nf = new Intl.NumberFormat(locale);
  const whole = nf.format(BigInt(`${m[1]}${m[2]}`));
  if (!m[3]) return whole;
  const decimal = nf.formatToParts(0.5).find((p) => p.type === 'decimal')?.value ?? '.';
  return `${whole}${decimal}${m[3]}`;
}

/** "37.5 USDC" / "37,5 USDC" */
export function formatTokenAmount(units: string, token: string, locale: string): string {
  return `${formatUnits(units, locale)}\u00a0${token}`;
}

/** A USD decimal string as currency: "$37.50" (en), "37,50 $" (de). */
export function formatUsd(amount: string, locale: string): string {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (!m) return `${amount} USD`;
  const cents = (m[2] ?? '').padEnd(2, '0');
  // exact like formatUnits: Intl lays out the currency, the cents are the amount's own digits
  const parts = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).formatToParts(BigInt(m[1]));
  return parts.map((p) => (p.type === 'fraction' ? cents : p.value)).join('');
}
