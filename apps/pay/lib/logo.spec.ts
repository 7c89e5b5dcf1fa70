// The logo fetch never reaches a private address in production (docs/pages.md › Branding).
import { createServer, type AddressInfo } from 'node:net';
import { addressAllowed, fetchLogoOnce } from './logo';

test.each([
  '127.0.0.1',
  '10.1.2.3',
  '192.168.0.10',
  '172.16.0.1',
  '169.254.169.254',
  '::1',
  'fd00::1',
  '::ffff:10.0.0.1',
  '0.0.0.0',
])('%s is refused in production', (ip) => expect(addressAllowed(ip, false)).toBe(false));

test.each(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'])('%s (public) is allowed', (ip) =>
  expect(addressAllowed(ip, false)).toBe(true),
);

test('outside production (SVC_ENV development or test) private hosts are allowed, for dev and the tests', () =>
  expect(addressAllowed('127.0.0.1', true)).toBe(true));

test('in production a logo URL on a loopback host is never connected to (checked at the lookup); outside it is', async () => {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await expect(fetchLogoOnce(`https://127.0.0.1:${port}/logo.png`, false)).resolves.toBeNull();
    await expect(fetchLogoOnce(`https://localhost:${port}/logo.png`, false)).resolves.toBeNull();
    expect(connections).toBe(0);
    await expect(fetchLogoOnce(`https://127.0.0.1:${port}/logo.png`, true)).resolves.toBeNull(); // no TLS there
    expect(connections).toBe(1);
  } finally {
    server.close();
  }
});

test('http and malformed logo URLs are not fetched', async () => {
  await expect(fetchLogoOnce('http://93.184.215.14/logo.png', false)).resolves.toBeNull();
  await expect(fetchLogoOnce('not a url', false)).resolves.toBeNull();
});
