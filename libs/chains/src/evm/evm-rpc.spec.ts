import { classifyBroadcastError, classifyRpcError } from './evm-rpc';

describe('classifyRpcError', () => {
  test('HTTP 429 and rate-limit messages are rate limits', () => {
    expect(classifyRpcError(Object.assign(new Error('HTTP 429 Too Many Requests'), { status: 429 }))).toBe(
      'rate_limited',
    );
    expect(classifyRpcError({ error: { message: 'daily request limit exceeded' } })).toBe('rate_limited');
    expect(
      classifyRpcError({ info: { error: { message: 'Your app has exceeded its compute units per second capacity' } } }),
    ).toBe('rate_limited');
    expect(classifyRpcError({ error: { message: 'rate limit exceeded for eth_getLogs' } })).toBe('rate_limited');
  });

  test('a log range the node refuses is range_too_large (the watcher halves its chunk)', () => {
    expect(classifyRpcError({ message: 'query returned more than 10000 results' })).toBe('range_too_large');
    expect(classifyRpcError({ error: { message: 'eth_getLogs block range is too large' } })).toBe('range_too_large');
    expect(
      classifyRpcError({
        error: { message: 'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range' },
      }),
    ).toBe('range_too_large');
  });

  test('anything else is the endpoint being unavailable', () => {
    expect(classifyRpcError(new Error('fetch failed'))).toBe('unavailable');
    expect(classifyRpcError(new Error('The operation was aborted due to timeout'))).toBe('unavailable');
  });
});

describe('classifyBroadcastError: what a node means when it refuses eth_sendRawTransaction', () => {
  it.each([
    ['already known', 'accepted'],
    ['transaction already imported', 'accepted'], // anvil
    ['known transaction: 0xabc', 'accepted'],
    ['nonce too low', 'nonce_too_low'],
    ['nonce too low: next nonce 5, tx nonce 3', 'nonce_too_low'],
    ['replacement transaction underpriced', 'underpriced'],
    ['max fee per gas less than block base fee', 'underpriced'], // anvil, geth
    ['transaction underpriced: tip needed 1, tip permitted 0', 'underpriced'],
    ['insufficient funds for gas * price + value', 'insufficient_funds'],
    ['Insufficient funds for gas * price + value', 'insufficient_funds'], // anvil
    ['invalid sender', 'rejected'],
  ])('%s → %s', (message, kind) => {
    expect(classifyBroadcastError(message).kind).toBe(kind);
  });
});
