import { redactRpcText, rpcEndpointLabel } from './rpc-url';

const URL_WITH_KEYS =
  'https://user:pa55word@bsc.provider.example:8443/v3/sk_live_0123456789abcdef?apikey=QUERYKEY987&x=1';

describe('RPC URLs in logs and stored errors: scheme, host and port only', () => {
  test('rpcEndpointLabel drops credentials, path and query', () => {
    expect(rpcEndpointLabel(URL_WITH_KEYS)).toBe('https://bsc.provider.example:8443');
    expect(rpcEndpointLabel('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545');
    expect(rpcEndpointLabel('not a url')).not.toContain('not a url');
  });

  test('redactRpcText cuts every URL in a message and keeps the punctuation after it', () => {
    const text = `request to ${URL_WITH_KEYS} failed (see wss://ws.example/ws/KEY123456/), retrying.`;
    const out = redactRpcText(text);
    expect(out).toBe('request to https://bsc.provider.example:8443 failed (see wss://ws.example), retrying.');
    for (const secret of ['pa55word', 'sk_live', 'QUERYKEY987', 'KEY123456', 'user']) expect(out).not.toContain(secret);
  });

  test('redactRpcText also removes the keys of the configured URLs where a node echoes them without the URL', () => {
    const out = redactRpcText('HTTP 401 Unauthorized {"error":"invalid project id sk_live_0123456789abcdef"}', [
      URL_WITH_KEYS,
    ]);
    expect(out).toBe('HTTP 401 Unauthorized {"error":"invalid project id …"}');
  });
});
