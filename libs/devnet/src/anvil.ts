// A local Anvil node from the npm package (@foundry-rs/anvil ships the binary per platform), on a
// free port. Dev tooling only: `npm run dev`, the e2e tests and the listener bench use it.
import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Anvil's default mnemonic ("test test … junk"), accounts 0..3: publicly known dev keys. */
export const ANVIL_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
  '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6',
] as const;

const PLATFORM_PACKAGES: Record<string, string | undefined> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

/** The anvil binary installed by `npm ci` (the optional dependency of @foundry-rs/anvil for this platform). */
export function anvilBinary(): string {
  const pkg = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (!pkg) throw new Error(`anvil: no @foundry-rs/anvil build for ${process.platform}-${process.arch}`);
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(`anvil: ${pkg} is not installed (run \`npm ci\`; it is a dev dependency)`);
  }
  const bin = path.join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!fs.existsSync(bin)) throw new Error(`anvil: ${bin} is missing (run \`npm ci\`)`);
  return bin;
}

/** A port the OS says is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function jsonRpc<T = unknown>(
  url: string,
  method: string,
  params: unknown[] = [],
  timeoutMs = 5000,
): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

export interface AnvilOptions {
  chainId: number;
  /** 0 or undefined: auto-mine (one block per transaction); otherwise a block every N seconds. */
  blockTimeSeconds?: number;
  port?: number;
  /** append anvil's output here (default: discard) */
  logFile?: string;
  accounts?: number;
  /** starting balance of each account, in ether */
  balanceEther?: number;
  readyTimeoutMs?: number;
  /** EVM hardfork (`--hardfork`), e.g. `berlin` for a chain without EIP-1559 (legacy gas price only) */
  hardfork?: string;
}

export interface AnvilNode {
  url: string;
  port: number;
  chainId: number;
  pid: number;
  /** JSON-RPC call on this node */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** mine `n` blocks at once (anvil_mine); resolves with the new head */
  mine(n?: number): Promise<number>;
  blockNumber(): Promise<number>;
  /** stops the process (SIGTERM, then SIGKILL); safe to call twice */
  stop(): Promise<void>;
  /** starts it again on the same port with the same options (the chain starts over) */
  restart(): Promise<void>;
}

/** Starts Anvil on 127.0.0.1 and waits until it answers with the expected chain id. */
export async function startAnvil(options: AnvilOptions): Promise<AnvilNode> {
  const bin = anvilBinary();
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();

  const launch = async (): Promise<void> => {
    const args = [
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--chain-id',
      String(options.chainId),
      '--accounts',
      String(options.accounts ?? 4),
      '--balance',
      String(options.balanceEther ?? 1_000_000_000),
      '--silent',
    ];
    if (options.blockTimeSeconds) args.push('--block-time', String(options.blockTimeSeconds));
    if (options.hardfork) args.push('--hardfork', options.hardfork);
    const out = options.logFile ? fs.openSync(options.logFile, 'a') : 'ignore';
    const proc = spawn(bin, args, { stdio: ['ignore', out, out] });
    if (typeof out === 'number') fs.closeSync(out);
    child = proc;
    let gone = false;
    // An anvil never outlives the process that started it (a test runner or script that exits).
    const reap = () => proc.kill('SIGKILL');
    process.once('exit', reap);
    exited = new Promise((resolve) =>
      proc.once('exit', () => {
        gone = true;
        process.removeListener('exit', reap);
        resolve();
      }),
    );
    proc.once('error', () => undefined);
    const deadline = Date.now() + (options.readyTimeoutMs ?? 20_000);
    for (;;) {
      if (gone) throw new Error(`anvil exited before answering on ${url}`);
      try {
        const id = BigInt(await jsonRpc<string>(url, 'eth_chainId', [], 500));
        if (id !== BigInt(options.chainId))
          throw new Error(`anvil on ${url} reports chain id ${id}, expected ${options.chainId}`);
        return;
      } catch (err) {
        if (/expected/.test((err as Error).message)) throw err;
        if (Date.now() > deadline)
          throw new Error(`anvil on ${url} did not answer within ${options.readyTimeoutMs ?? 20_000} ms`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const stop = async (): Promise<void> => {
    const proc = child as ChildProcess | null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    const killer = setTimeout(() => proc.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(killer);
  };

  try {
    await launch();
  } catch (err) {
    await stop();
    throw err;
  }
  const rpc = <T>(method: string, params: unknown[] = []) => jsonRpc<T>(url, method, params);
  return {
    url,
    port,
    chainId: options.chainId,
    get pid() {
      return (child as ChildProcess | null)?.pid ?? -1;
    },
    rpc,
    async mine(n = 1) {
      await rpc('anvil_mine', [`0x${n.toString(16)}`]);
      return Number(BigInt(await rpc<string>('eth_blockNumber')));
    },
    async blockNumber() {
      return Number(BigInt(await rpc<string>('eth_blockNumber')));
    },
    stop,
    async restart() {
      await stop();
      await launch();
    },
  };
}
