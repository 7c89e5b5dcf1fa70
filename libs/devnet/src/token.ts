// The dev/test stablecoin: an OpenZeppelin ERC-20 with configurable decimals and an open mint,
// compiled with solc-js on first use and cached under node_modules/.cache (not committed).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ContractFactory, Interface, JsonRpcProvider, Network, Wallet, id } from 'ethers';

export const TOKEN_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// Dev stablecoin: OpenZeppelin ERC-20 with configurable decimals and an open mint.
contract DevToken is ERC20 {
    uint8 private immutable _tokenDecimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_) {
        _tokenDecimals = decimals_;
    }

    function decimals() public view override returns (uint8) {
        return _tokenDecimals;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// Many transfers in one transaction (one Transfer event each): fills blocks for the listener bench.
    function transferMany(address[] calldata to, uint256 amount) external {
        for (uint256 i = 0; i < to.length; i++) {
            _transfer(msg.sender, to[i], amount);
        }
    }
}
`;

export const TOKEN_ABI = [
  'function transfer(address to, uint256 amount) returns (bool)',
  'function transferMany(address[] to, uint256 amount)',
  'function balanceOf(address) view returns (uint256)',
  'function decimals() view returns (uint8)',
  'function mint(address to, uint256 amount)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
];
export const TOKEN_INTERFACE = new Interface(TOKEN_ABI);
export const TRANSFER_TOPIC = id('Transfer(address,address,uint256)');

export interface CompiledToken {
  abi: unknown[];
  bytecode: string;
}

let compiled: CompiledToken | null = null;

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

/** Compiles DevToken once per (source, solc, OpenZeppelin) and caches the artifact. */
export function compileToken(): CompiledToken {
  if (compiled) return compiled;
  const ozDir = packageDir('@openzeppelin/contracts');
  const ozVersion = (JSON.parse(fs.readFileSync(path.join(ozDir, 'package.json'), 'utf8')) as { version: string })
    .version;
  const solcVersion = (
    JSON.parse(fs.readFileSync(path.join(packageDir('solc'), 'package.json'), 'utf8')) as { version: string }
  ).version;
  const key = createHash('sha256').update(`${TOKEN_SOURCE}|${ozVersion}|${solcVersion}`).digest('hex').slice(0, 16);
  const cacheDir = path.join(path.dirname(path.dirname(ozDir)), '.cache', 'svc-devnet');
  const cacheFile = path.join(cacheDir, `DevToken-${key}.json`);
  if (fs.existsSync(cacheFile)) {
    compiled = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as CompiledToken;
    return compiled;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- solc is CommonJS and slow to load: only when compiling
  const solc = require('solc') as { compile(input: string, opts: { import: (p: string) => unknown }): string };
  const input = {
    language: 'Solidity',
    sources: { 'DevToken.sol': { content: TOKEN_SOURCE } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'paris',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const nodeModules = path.dirname(path.dirname(ozDir));
  const findImports = (p: string) => {
    const full = path.resolve(nodeModules, p);
    if (!full.startsWith(nodeModules + path.sep)) return { error: `outside node_modules: ${p}` };
    try {
      return { contents: fs.readFileSync(full, 'utf8') };
    } catch {
      return { error: `not found: ${p}` };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as {
    errors?: Array<{ severity: string; formattedMessage: string }>;
    contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const c = output.contracts['DevToken.sol'].DevToken;
  compiled = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  fs.mkdirSync(cacheDir, { recursive: true });
  // Atomic: parallel test workers may compile at once; a reader never sees half a file.
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(compiled));
  fs.renameSync(tmp, cacheFile);
  return compiled;
}

/** A provider for a local devnet: no network detection round trips, no batching delay. */
export function devProvider(rpcUrl: string, chainId?: number): JsonRpcProvider {
  const provider = new JsonRpcProvider(rpcUrl, chainId ? Network.from(chainId) : undefined, {
    staticNetwork: chainId ? Network.from(chainId) : true,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
  provider.pollingInterval = 50;
  return provider;
}

export interface DeployTokenOptions {
  rpcUrl: string;
  privateKey: string;
  name: string;
  symbol: string;
  decimals: number;
  /** addresses that receive `mintUnits` whole tokens each */
  mintTo?: string[];
  mintUnits?: bigint;
}

/** Deploys a DevToken and mints to the given holders; resolves with its (checksummed) address. */
export async function deployToken(o: DeployTokenOptions): Promise<string> {
  const { abi, bytecode } = compileToken();
  const provider = devProvider(o.rpcUrl);
  try {
    const wallet = new Wallet(o.privateKey, provider);
    let nonce = await provider.getTransactionCount(wallet.address, 'pending');
    const contract = await new ContractFactory(abi as never, bytecode, wallet).deploy(o.name, o.symbol, o.decimals, {
      nonce: nonce++,
    });
    await contract.waitForDeployment();
    const address = await contract.getAddress();
    const amount = (o.mintUnits ?? 1_000_000_000_000n) * 10n ** BigInt(o.decimals);
    for (const to of o.mintTo ?? []) {
      const tx = await wallet.sendTransaction({
        to: address,
        data: TOKEN_INTERFACE.encodeFunctionData('mint', [to, amount]),
        nonce: nonce++,
      });
      await tx.wait();
    }
    return address;
  } finally {
    provider.destroy();
  }
}
