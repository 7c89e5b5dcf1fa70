import type { ChainConfig } from '../registry';
import { zeroPadValue, toBeHex } from 'ethers';
import {
  EvmMatchContext,
  RpcBlock,
  RpcLog,
  TRANSFER_TOPIC,
  finalHead,
  nativeCandidates,
  nativeTransfer,
  transfersFromLogs,
  watchedTokenContracts,
  watchesNative,
} from './evm-transfers';

const USDC = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const PAYER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const WATCHED = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const OTHER = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65';
const topicOf = (address: string) => zeroPadValue(address.toLowerCase(), 32);

const ctx: EvmMatchContext = {
  chain: 'bnb',
  network: 'mainnet',
  watched: new Set([WATCHED.toLowerCase()]),
  tokenContracts: new Map([[USDC.toLowerCase(), USDC]]),
  head: 110n,
};

const log = (over: Partial<RpcLog> = {}): RpcLog => ({
  address: USDC.toLowerCase(),
  topics: [TRANSFER_TOPIC, topicOf(PAYER), topicOf(WATCHED)],
  data: zeroPadValue(toBeHex(25n * 10n ** 18n), 32),
  blockNumber: '0x64',
  blockHash: `0x${'ab'.repeat(32)}`,
  transactionHash: `0x${'cd'.repeat(32)}`,
  logIndex: '0x3',
  ...over,
});

describe('transfersFromLogs', () => {
  test('an ERC-20 Transfer to a watched address becomes an ObservedTransfer with checksummed addresses', () => {
    expect(transfersFromLogs([log()], ctx)).toEqual([
      {
        chain: 'bnb',
        network: 'mainnet',
        txHash: `0x${'cd'.repeat(32)}`,
        logIndex: 3,
        fromAddress: PAYER,
        toAddress: WATCHED,
        tokenAddress: USDC,
        amountAtomic: 25n * 10n ** 18n,
        blockNumber: 100n,
        confirmations: 11,
      },
    ]);
  });

  test('skips transfers to other addresses, other contracts, removed logs, ERC-721 transfers and zero amounts', () => {
    const skipped = [
      log({ topics: [TRANSFER_TOPIC, topicOf(PAYER), topicOf(OTHER)] }),
      log({ address: OTHER }),
      log({ removed: true }),
      log({ topics: [TRANSFER_TOPIC, topicOf(PAYER), topicOf(WATCHED), zeroPadValue('0x01', 32)], data: '0x' }),
      log({ data: zeroPadValue('0x00', 32) }),
      log({ topics: [`0x${'11'.repeat(32)}`, topicOf(PAYER), topicOf(WATCHED)] }),
    ];
    expect(transfersFromLogs(skipped, ctx)).toEqual([]);
  });
});

describe('native transfers', () => {
  const block: RpcBlock = {
    number: '0x65',
    hash: `0x${'01'.repeat(32)}`,
    parentHash: `0x${'02'.repeat(32)}`,
    transactions: [
      { hash: '0xa1', from: PAYER.toLowerCase(), to: WATCHED.toLowerCase(), value: '0xde0b6b3a7640000' },
      { hash: '0xa2', from: PAYER.toLowerCase(), to: OTHER.toLowerCase(), value: '0x1' },
      { hash: '0xa3', from: PAYER.toLowerCase(), to: WATCHED.toLowerCase(), value: '0x0' },
      { hash: '0xa4', from: PAYER.toLowerCase(), to: null, value: '0x5' },
    ],
  };

  test('only top-level value transfers to watched addresses are candidates', () => {
    expect(nativeCandidates(block, ctx.watched).map((t) => t.hash)).toEqual(['0xa1']);
  });

  test('a native transfer has log index -1 and no token address', () => {
    const [tx] = nativeCandidates(block, ctx.watched);
    expect(nativeTransfer(tx, block, ctx)).toEqual({
      chain: 'bnb',
      network: 'mainnet',
      txHash: '0xa1',
      logIndex: -1,
      fromAddress: PAYER,
      toAddress: WATCHED,
      tokenAddress: null,
      amountAtomic: 10n ** 18n,
      blockNumber: 101n,
      confirmations: 10,
    });
  });
});

describe('chain configuration', () => {
  const chain = (tokens: ChainConfig['tokens']): ChainConfig => ({
    chain: 'arc',
    network: 'mainnet',
    kind: 'evm',
    chainId: null,
    rpcUrls: [],
    confirmations: 1,
    watched: true,
    tokens,
  });

  test('arc watches only its native USDC: a registered 6-decimal ERC-20 view that is not watched is not read', () => {
    const arc = chain([
      { symbol: 'USDC', address: null, native: true, decimals: 18, watched: true },
      { symbol: 'USDC6', address: USDC, native: false, decimals: 6, watched: false },
    ]);
    expect(watchedTokenContracts(arc).size).toBe(0);
    expect(watchesNative(arc)).toBe(true);
  });

  test('the final head is head - confirmations + 1 (at least the head itself)', () => {
    expect(finalHead(100n, 15)).toBe(86n);
    expect(finalHead(100n, 1)).toBe(100n);
    expect(finalHead(100n, 0)).toBe(100n);
  });
});
