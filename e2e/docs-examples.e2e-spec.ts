// Every code example of README.md and docs/ runs as printed (issue 20 item 5). A fenced `sh`,
// `js` or `ts` block must follow a marker line:
//   <!-- run: sh … -->        bash against a real API (in-process, listening on a port), the
//                             listener and an Anvil devnet; only SVC and KEY are set, as the
//                             README says (`export SVC=…`, `export KEY=…` lines get the test's
//                             values); every curl must get a 2xx (curl --fail-with-body)
//   <!-- run: ts … -->        the TypeScript file, compiled by swc, with @svc/client from libs/client
//   <!-- run: receiver … -->  the webhook receiver, started with node, sent signed and forged events
//   <!-- not run: <reason> --> a block that cannot run here (Docker, a synopsis …), with the reason
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { Harness, startHarness, waitFor } from './support/listener-harness';
import { PAY_URL } from './support/test-app';

jest.setTimeout(600_000);

const ROOT = join(__dirname, '..');
const CODE_LANGS = new Set(['sh', 'bash', 'js', 'ts']);

interface Block {
  where: string;
  lang: string;
  marker: string | null;
  code: string;
}

function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${file}:${i + 1}: an unclosed code block`);
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const marker = /^<!-- ((?:not )?run: .+) -->$/.exec(lines[before] ?? '')?.[1] ?? null;
    blocks.push({ where: `${file}:${i + 1}`, lang: open[1], marker, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);
const blocks = pages.flatMap(blocksOf);
const code = blocks.filter((b) => CODE_LANGS.has(b.lang));
const kindOf = (b: Block) => /^run: (\w+)/.exec(b.marker ?? '')?.[1] ?? null;

test('every code block is marked: run, or not run with a reason', () => {
  expect(code.length).toBeGreaterThan(10);
  const unmarked = code.filter((b) => b.marker === null).map((b) => b.where);
  expect(unmarked).toEqual([]);
  const notRun = code.filter((b) => b.marker!.startsWith('not run:'));
  for (const b of notRun)
    expect({ where: b.where, reason: b.marker!.length > 'not run: '.length + 20 }).toEqual({
      where: b.where,
      reason: true,
    });
  const kinds = code.filter((b) => b.marker!.startsWith('run:')).map(kindOf);
  for (const kind of kinds) expect(['sh', 'ts', 'receiver']).toContain(kind);
});

function run(
  file: string,
  args: string[],
  env: Record<string, string>,
  timeout = 180_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: ROOT, env: { ...process.env, ...env }, timeout, maxBuffer: 16 << 20 },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the examples that run', () => {
  let h: Harness;
  let env: Record<string, string>;

  beforeAll(async () => {
    h = await startHarness();
    await h.listener();
    await h.t.app.listen(0, '127.0.0.1');
    const { port } = h.t.app.getHttpServer().address() as AddressInfo;
    env = {
      SVC: `http://127.0.0.1:${port}`,
      KEY: h.m.apiKey,
      // what the CLI (`npm run svc -- …`) of `npm run dev` reads: the same database, devnet and seed
      DATABASE_URL: h.t.config.databaseUrl,
      REDIS_URL: h.t.config.redisUrl,
      SVC_ENV: 'test',
      SVC_CHAINS_FILE: h.devnet.chainsFile,
      SVC_MNEMONIC: h.t.config.mnemonic!,
    };
  }, 180_000);
  afterAll(() => h?.close());

  const shell = code.filter((b) => kindOf(b) === 'sh');
  test.each(shell.map((b) => [b.where, b] as const))('%s runs', async (_where, block) => {
    // only the two variables the text tells the reader to set get the test's values
    const script = block.code.replace(
      /^export (SVC|KEY)=.*$/gm,
      (_line, name: 'SVC' | 'KEY') => `export ${name}=${env[name]}`,
    );
    const result = await run(
      'bash',
      ['-c', `set -eo pipefail\ncurl() { command curl --fail-with-body "$@"; }\n${script}`],
      env,
    );
    expect({ where: block.where, code: result.code, stderr: result.code ? result.stderr : '' }).toEqual({
      where: block.where,
      code: 0,
      stderr: '',
    });
  });

  test('README: the demo payment paid by `npm run svc -- dev:pay` in the tour confirms', async () => {
    const [payment] = await h.t.db.query(`SELECT id FROM payments WHERE idempotency_key = 'order-1002'`);
    expect(payment).toBeDefined();
    await h.finalise('bnb');
    await h.until(payment.id, (p) => p.status === 'confirmed');
  });

  test('docs/errors.md: the answers that do not come from a domain error are the real ones', async () => {
    const errors = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
    const send = (path: string, init: RequestInit = {}) =>
      fetch(`${env.SVC}${path}`, { ...init, headers: { 'x-api-key': env.KEY, ...init.headers } }).then(
        async (r) => [r.status, ((await r.json()) as { message: string | string[] }).message] as const,
      );
    const json = { 'content-type': 'application/json' };
    const answers = [
      await send('/v1/nothing'),
      await send('/v1/products', { method: 'POST', headers: json, body: '{"name":' }),
      await send('/v1/products', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
      await send('/v1/products', { method: 'POST', headers: json, body: JSON.stringify({ d: 'x'.repeat(300_000) }) }),
      await send('/v1/events?limit=1&limit=2'),
    ];
    expect(answers.map(([status]) => status)).toEqual([404, 400, 415, 413, 400]);
    // a message may be an array (the validation pipe's, the input-hygiene check's): each item is documented
    const rows = answers.flatMap(([status, message]) =>
      (Array.isArray(message) ? message : [message]).map(
        (m: string) => `| ${status} | \`${m.replace('parameter limit ', 'parameter <name> ')}`,
      ),
    );
    for (const row of rows) expect(errors).toContain(row);
  });

  const typescript = code.filter((b) => kindOf(b) === 'ts');
  test.each(typescript.map((b) => [b.where, b] as const))('%s compiles and runs', async (_where, block) => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-docs-'));
    const file = join(dir, 'example.ts');
    writeFileSync(file, block.code);
    // "checked by the compiler": the repository's compiler options, @svc/client resolved as in the repo
    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    )!;
    const program = ts.createProgram([file], { ...parsed.options, rootDir: undefined, noEmit: true });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(errors).toEqual([]);
    const result = await run(process.execPath, ['-r', join(ROOT, 'scripts/swc-register.js'), file], {
      SVC: env.SVC,
      SVC_API_KEY: env.KEY,
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout.trim()).toMatch(new RegExp(`^${PAY_URL}/c/cs_[0-9a-f]{32}$`));
  });

  const receivers = code.filter((b) => kindOf(b) === 'receiver');
  test.each(receivers.map((b) => [b.where, b] as const))(
    '%s verifies, deduplicates and refuses a forgery',
    async (_w, block) => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-docs-'));
      writeFileSync(join(dir, 'receiver.js'), block.code);
      const secret = `whsec_${randomUUID().replace(/-/g, '')}`;
      const port = await freePort();
      const child: ChildProcess = spawn(process.execPath, ['receiver.js'], {
        cwd: dir,
        env: { ...process.env, SVC_WEBHOOK_SECRET: secret, PORT: String(port) },
      });
      let stdout = '';
      child.stdout!.on('data', (d) => (stdout += String(d)));
      try {
        const body = JSON.stringify({
          id: randomUUID(),
          type: 'payment.confirmed',
          createdAt: new Date().toISOString(),
          data: {},
        });
        const post = (raw: string, signature: string) =>
          fetch(`http://127.0.0.1:${port}/hooks/svc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-svc-signature': signature },
            body: raw,
          }).then((r) => r.status);
        const sign = (raw: string, key: string) => `sha256=${createHmac('sha256', key).update(raw).digest('hex')}`;
        await waitFor('the receiver to listen', () =>
          post('{}', 'sha256=00').then(
            () => true,
            () => false,
          ),
        );
        expect(await post(body, sign(body, secret))).toBe(204);
        expect(await post(body, sign(body, secret))).toBe(204); // a redelivery of the same event
        expect(await post(body, sign(body, 'whsec_wrong'))).toBe(400);
        expect(await post(body.replace('payment.confirmed', 'payment.refunded'), sign(body, secret))).toBe(400);
        expect(stdout.trim().split('\n')).toEqual([`payment.confirmed ${JSON.parse(body).id}`]);
      } finally {
        child.kill();
      }
    },
  );
});
