import { parseArgs } from 'node:util';

/** Wrong or missing arguments: reported on stderr with exit code 2 (with the whole usage when `withUsage`). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly withUsage = false,
  ) {
    super(message);
  }
}

export const USAGE = `usage: npm run svc -- <command> [options]

commands:
  migrate                                            create the database if missing, run pending migrations
  workspace:create --name <name> [--json]            create a workspace (merchant) and its owner API key
  apikey:create --merchant <uuid> --role owner|admin|developer [--json]
                                                     create another API key for a workspace
  apikey:list --merchant <uuid> [--json]             a workspace's keys: id, role, created, last used, revoked
                                                     (never the key)
  apikey:revoke --key-id <uuid> [--json]             revoke a key: it answers 401 at once
  recover --payment <uuid> --tx <hash> [--json]      credit one transaction from chain data (the support recovery;
                                                     exit code 3 when refused, the API's 409)
  listen --forward-to <url> [--events <filter>] [--api-key <key>] [--api-url <url>]
                                                     follow the workspace's events and re-post each, signed with
                                                     a printed local secret, to a local URL (like stripe listen)
  dev:pay --payment <uuid> [--amount <token units>] [--token <symbol>]
                                                     pay a payment on the devnet (npm run dev; not in production)
  gas-tank [--json]                                  each gas tank's address (EVM, Sui) and its native balance per
                                                     chain and network (--json: one JSON line per rail)
  destinations:authorise [--dry-run] [--json]        once, after upgrading to destination MACs: give a MAC to the
                                                     settlement addresses and open refunds that have none, and list
                                                     them (--dry-run: list only)

An API key is shown once and stored only as a hash.
`;

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;
type Parsed<T extends OptionSpec> = {
  [K in keyof T]?: T[K]['type'] extends 'string' ? string : boolean;
};

/** Strict `--flag value` / `--flag=value` parsing: unknown options, positionals and missing values are usage errors. */
export function parseOptions<T extends OptionSpec>(command: string, args: string[], options: T): Parsed<T> {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as Parsed<T>;
  } catch (err) {
    throw new UsageError(`${command}: ${(err as Error).message}`);
  }
}

export function requireOption(command: string, name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${command}: --${name} <value> is required.`);
  return value.trim();
}
