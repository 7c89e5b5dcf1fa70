import { classifyBroadcastError } from './evm-rpc-client';

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
