// The documentation follows the code (issue 20 item 5): every state of every object, every domain
// error code and its status, every message of the API's rules, and no pointer to a text a user of
// the service does not have. Reads the code's own unions and message modules, nothing copied here.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpStatus } from '@nestjs/common';
import { parse } from 'yaml';
import { DOMAIN_ERROR_CODES } from '@svc/core';
import { WEBHOOK_DELIVERY_STATUSES } from '@svc/db';
import {
  API_KEY_ROLES,
  CANCELLED_REASONS,
  FAILED_REASONS,
  FUNDS_SENT_CANCEL_MESSAGE,
  FUNDS_SENT_CHAIN_CHANGE_MESSAGE,
  HELD_REASONS,
  INVOICE_CHAIN_CHANGE_MESSAGE,
  INVOICE_STATUSES,
  invoiceConflictMessage,
  MANUAL_REASONS,
  ONLY_ACTIVE_CAN_BE_DEFAULT,
  OUTBOUND_STATES,
  OUTBOUND_WAIT_REASONS,
  PAYMENT_STATUSES,
  PAYOUT_STATES,
  permissionDeniedMessage,
  PERMISSIONS,
  roleHasPermission,
  PRODUCT_STATUSES,
  REFUND_REASONS,
  REFUND_STATUSES,
  SESSION_STATUSES,
  sessionStatusMessage,
  SETTLEMENT_ADDRESS_STATUSES,
} from '@svc/domain';
import { httpStatusOf } from '../apps/api/src/common/error.filter';
import * as checkoutMessages from '../apps/api/src/modules/checkout/checkout.errors';
import * as invoiceMessages from '../apps/api/src/modules/invoices/invoices.errors';
import * as productMessages from '../apps/api/src/modules/products/products.errors';
import * as refundMessages from '../apps/api/src/modules/refunds/refunds.errors';
import * as settlementMessages from '../apps/api/src/modules/settlement/settlement.errors';
import * as webhookMessages from '../apps/api/src/modules/webhooks/webhooks.errors';
import { ADDRESSES_EXHAUSTED, DEPOSIT_POOL_EMPTY } from '../apps/api/src/modules/payments/address-allocator.service';
import { SIGNER_KEYS_MISSING } from '@svc/core';
import { DEFAULT_PAYOUTS_OPTIONS } from '../apps/payouts/src/payouts.options';
import { DEFAULT_FEE_POLICY, PAYOUT_FEE_POLICY } from '@svc/outbound';
import { BUILT_IN_CHAINS } from '@svc/chains';
import { USAGE } from '../apps/cli/src/cli-args';
import * as client from '../libs/client/src';

const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The lines of a `## heading` section, up to the next `## `. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section "## ${heading}"`);
  const rest = markdown.slice(start + 1);
  const end = rest.indexOf('\n## ', 3);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The values in the first column of a section's tables (`` | `value` | … ``). */
function firstColumn(text: string): string[] {
  return [...text.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
}

describe('docs/states.md: the states of every object, from the code', () => {
  const states = read('docs/states.md');
  const objects: Array<[string, readonly string[]]> = [
    ['Payment', PAYMENT_STATUSES],
    ['Checkout session', SESSION_STATUSES],
    ['Product', PRODUCT_STATUSES],
    ['Invoice', INVOICE_STATUSES],
    ['Settlement address', SETTLEMENT_ADDRESS_STATUSES],
    ['Sweep (payout)', PAYOUT_STATES],
    ['Refund', REFUND_STATUSES],
    ['Webhook delivery', WEBHOOK_DELIVERY_STATUSES],
    ['Outbound transfer (operator view)', OUTBOUND_STATES],
  ];
  test.each(objects)('%s: the table lists exactly the states of the code', (heading, codeStates) => {
    expect([...firstColumn(section(states, heading))].sort()).toEqual([...codeStates].sort());
  });

  test('sweep and refund reasons: every reason of the code is documented', () => {
    const sweep = section(states, 'Sweep (payout)');
    for (const reason of [...HELD_REASONS, ...MANUAL_REASONS, ...FAILED_REASONS])
      expect(sweep).toContain(`\`${reason}\``);
    const refund = section(states, 'Refund');
    for (const reason of REFUND_REASONS) expect(refund).toContain(`\`${reason}\``);
  });
});

describe('docs/errors.md: codes, statuses and messages, from the code', () => {
  const errors = read('docs/errors.md');

  test('every domain error code is in the table with the status the filter gives it', () => {
    const rows = new Map(
      [...section(errors, 'Statuses').matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]),
    );
    for (const code of DOMAIN_ERROR_CODES) {
      expect({ code, status: rows.get(code) }).toEqual({ code, status: httpStatusOf(code) as HttpStatus });
    }
    expect([...rows.keys()].sort()).toEqual([...DOMAIN_ERROR_CODES].sort());
  });

  // A message function is called with `<param>` for each of its parameters (an array parameter
  // with one such item), so `amountAbove(amount, max)` must read `amount <amount> is above …`.
  const ARRAY_PARAMS = new Set(['enabled', 'rails']);
  /** Functions whose arguments are not plain values: what the doc prints for them. */
  const BY_HAND: Record<string, string> = {
    idempotencyMismatch:
      'idempotencyKey <key> was already used for <what>; this request asks for <what>. Retry with a new idempotencyKey.',
  };
  function rendered(name: string, value: unknown): string | null {
    if (typeof value === 'string') return value;
    if (typeof value !== 'function') return null;
    if (name in BY_HAND) return BY_HAND[name];
    const params = /^(?:function\s*\w*)?\s*\(?([^)=]*)\)?\s*(?:=>|\{)/.exec(value.toString())?.[1] ?? '';
    const args = params
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => (ARRAY_PARAMS.has(p) ? [`<${p}>`] : `<${p}>`));
    return (value as (...a: unknown[]) => string)(...args);
  }

  const modules = {
    checkoutMessages,
    invoiceMessages,
    productMessages,
    refundMessages,
    settlementMessages,
    webhookMessages,
  };
  const messages: Array<[string, string]> = [];
  for (const [moduleName, mod] of Object.entries(modules)) {
    for (const [name, value] of Object.entries(mod)) {
      const text = rendered(name, value);
      if (text !== null) messages.push([`${moduleName}.${name}`, text]);
    }
  }
  messages.push(
    ['FUNDS_SENT_CANCEL_MESSAGE', FUNDS_SENT_CANCEL_MESSAGE],
    ['FUNDS_SENT_CHAIN_CHANGE_MESSAGE', FUNDS_SENT_CHAIN_CHANGE_MESSAGE],
    ['INVOICE_CHAIN_CHANGE_MESSAGE', INVOICE_CHAIN_CHANGE_MESSAGE],
    ['ONLY_ACTIVE_CAN_BE_DEFAULT', ONLY_ACTIVE_CAN_BE_DEFAULT],
    ['ADDRESSES_EXHAUSTED', ADDRESSES_EXHAUSTED],
    ['DEPOSIT_POOL_EMPTY', DEPOSIT_POOL_EMPTY],
    ['SIGNER_KEYS_MISSING', SIGNER_KEYS_MISSING],
    ['sessionStatusMessage', sessionStatusMessage('<status>' as never)],
    ['permissionDeniedMessage', permissionDeniedMessage('<role>' as never, '<permission>' as never)],
    ['invoiceConflictMessage(update)', invoiceConflictMessage('update', '<status>' as never)],
    ['invoiceConflictMessage(finalize)', invoiceConflictMessage('finalize', '<status>' as never)],
    ['invoiceConflictMessage(void, paid)', invoiceConflictMessage('void', 'paid')],
    ['invoiceConflictMessage(void)', invoiceConflictMessage('void', '<status>' as never)],
    ['invoiceConflictMessage(pay, draft)', invoiceConflictMessage('pay', 'draft')],
    ['invoiceConflictMessage(pay)', invoiceConflictMessage('pay', '<status>' as never)],
  );

  test('the message modules were read (a renamed module cannot empty this test)', () => {
    expect(messages.length).toBeGreaterThan(60);
  });

  test.each(messages)('%s is printed in docs/errors.md', (_name, text) => {
    expect(errors).toContain(`\`${text}\``);
  });

  test('api-guide.md: the permission table is the one of the code (every permission, every role)', () => {
    const table = section(read('docs/api-guide.md'), 'Keys and permissions');
    const header = /^\| permission \| (.+) \| what it guards \|$/m.exec(table)![1].split(' | ');
    expect(header).toEqual([...API_KEY_ROLES]);
    const rows = new Map(
      [...table.matchAll(/^\| `([a-z.]+)` \| ((?:yes|no)(?: \| (?:yes|no))*) \|/gm)].map((m) => [
        m[1],
        m[2].split(' | '),
      ]),
    );
    expect([...rows.keys()].sort()).toEqual([...PERMISSIONS].sort());
    for (const permission of PERMISSIONS) {
      expect({ permission, roles: rows.get(permission) }).toEqual({
        permission,
        roles: API_KEY_ROLES.map((role) => (roleHasPermission(role, permission) ? 'yes' : 'no')),
      });
    }
  });
});

describe('the docs stand alone', () => {
  const pages = ['README.md', ...readdirMd('docs')];
  function readdirMd(dir: string): string[] {
    return readdirSync(join(ROOT, dir))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `${dir}/${f}`);
  }
  // texts a user of the service does not have: the project's internal contracts and spec
  const OUTSIDE = [
    /\.\.\/shared\//,
    /\bthe spec\b/i,
    /\bspec's\b/i,
    /\(spec[:)]/i,
    /money contract/i,
    /runtime contract/i,
    /\bthe contract\b/i,
    /\bcontract's\b/i,
  ];

  test.each(pages)('%s points at nothing outside the repository', (page) => {
    const text = read(page);
    const hits = text
      .split('\n')
      .map((line, i) => ({ line: i + 1, text: line }))
      .filter((l) => OUTSIDE.some((re) => re.test(l.text)));
    expect(hits).toEqual([]);
  });

  test.each(pages)('%s: every relative link names a file of the repository', (page) => {
    const text = read(page);
    const dir = page.includes('/') ? page.slice(0, page.lastIndexOf('/')) : '.';
    const missing = [...text.matchAll(/\]\(([^)#:\s]+)(#[^)]*)?\)/g)]
      .map((m) => m[1])
      .filter((target) => {
        try {
          readFileSync(join(ROOT, dir, target));
          return false;
        } catch (e) {
          return (e as NodeJS.ErrnoException).code !== 'EISDIR';
        }
      });
    expect(missing).toEqual([]);
  });
  test('`npm run svc -- --help` points at nothing outside the repository either', () => {
    expect(USAGE.split('\n').filter((line) => OUTSIDE.some((re) => re.test(line)))).toEqual([]);
  });

  test("README's command table lists every command `npm run svc -- --help` prints, and no other", () => {
    const helped = [...USAGE.matchAll(/^ {2}([a-z][a-z:-]+)\b/gm)].map((m) => m[1]).sort();
    const readme = [...read('README.md').matchAll(/^\| `npm run svc -- ([a-z][a-z:-]+)\b/gm)].map((m) => m[1]).sort();
    expect(helped.length).toBeGreaterThan(5);
    expect(readme).toEqual(helped);
  });

  /** GitHub's heading anchors: lower case, punctuation other than - and _ dropped, spaces to -. */
  const anchorsOf = (markdown: string) =>
    new Set(
      [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
        m[1]
          .toLowerCase()
          .replace(/[^\p{L}\p{N} _-]/gu, '')
          .replace(/ /g, '-'),
      ),
    );

  test.each(pages)('%s: every #anchor of a link names a heading of its page', (page) => {
    const text = read(page);
    const dir = page.includes('/') ? page.slice(0, page.lastIndexOf('/')) : '.';
    const broken = [...text.matchAll(/\]\(([^)#:\s]*)#([^)\s]+)\)/g)]
      .map(([, target, anchor]) => ({ target: target ? join(dir, target) : page, anchor }))
      .filter(({ target, anchor }) => !anchorsOf(read(target)).has(anchor));
    expect(broken).toEqual([]);
  });
});

describe('figures the docs quote from the code', () => {
  test('money-out.md: the stuck-transaction timer of the signer process and of the signer library', () => {
    const moneyOut = read('docs/money-out.md');
    const payouts = PAYOUT_FEE_POLICY.stuckAfterSeconds as number;
    expect(DEFAULT_PAYOUTS_OPTIONS.feePolicy).toBe(PAYOUT_FEE_POLICY); // the planner quotes by what the signer signs by
    expect(moneyOut).toContain(`not mined ${payouts} s after its broadcast`);
    expect(moneyOut).toContain(`**${payouts} s in the signer process**`);
    expect(moneyOut).toContain(`${DEFAULT_FEE_POLICY.stuckAfterSeconds} s is only the signer\n  library's own default`);
  });

  test('money-out.md: every wait_reason of an outbound transaction', () => {
    const list = /It may be waiting \(`wait_reason`: ([^)]+)\)/.exec(read('docs/money-out.md').replace(/\s+/g, ' '));
    expect([...list![1].matchAll(/`([a-z_]+)`/g)].map((m) => m[1])).toEqual([...OUTBOUND_WAIT_REASONS]);
  });

  test('every @svc/client helper the docs name is one the client exports', () => {
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter(
      (page) => page.endsWith('.md') && page !== 'docs/performance.md',
    );
    const named = new Set(
      pages.flatMap((page) =>
        [...read(page).matchAll(/\b((?:verify|sign|parse)\w*(?:Webhook|Return)\w*)\b/g)].map((m) => m[1]),
      ),
    );
    expect(named.size).toBeGreaterThan(3);
    expect([...named].filter((name) => typeof (client as Record<string, unknown>)[name] !== 'function')).toEqual([]);
  });

  test('chains.md: the built-in rails, their kind, chain id and confirmations', () => {
    const rows = [
      ...section(read('docs/chains.md'), 'Built in').matchAll(
        /^\| ([a-z]+) \/ ([a-z]+) \| ([a-z]+) \| ([0-9]+|—) \| ([0-9]+) \|/gm,
      ),
    ].map(([, chain, network, kind, chainId, confirmations]) => [chain, network, kind, chainId, Number(confirmations)]);
    expect(rows).toEqual(
      BUILT_IN_CHAINS.map((c) => [
        c.chain,
        c.network,
        c.kind,
        c.chainId === undefined || c.chainId === null ? '—' : String(c.chainId),
        c.confirmations,
      ]),
    );
  });

  test('api-guide.md: every sweep reason', () => {
    const guide = read('docs/api-guide.md').replace(/\s+/g, ' ');
    const list = /\*\*Sweeps\*\*: `reason` is a stable code \(([^)]+)\)/.exec(guide);
    expect([...list![1].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]).sort()).toEqual(
      [...HELD_REASONS, ...MANUAL_REASONS, ...FAILED_REASONS, ...CANCELLED_REASONS].sort(),
    );
  });

  test('webhooks.md: the file it calls copyable imports nothing but node:crypto', () => {
    expect(read('docs/webhooks.md')).toContain(
      '[`libs/client/src/webhooks.ts`](../libs/client/src/webhooks.ts) imports only `node:crypto`',
    );
    const imports = [...read('libs/client/src/webhooks.ts').matchAll(/\bfrom '([^']+)'|require\('([^']+)'\)/g)].map(
      (m) => m[1] ?? m[2],
    );
    expect(imports).toEqual(['node:crypto']);
  });
});

describe('configuration.md: the environment variables, from the code', () => {
  /** The code of a file without its comments: a variable named only in a comment is not read. */
  const code = (path: string) =>
    read(path)
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/\/\/.*$/gm, '');

  /** Every variable libs/config reads: `env.NAME`, the rate limits' names, and each key's `<name>` and `<name>_FILE`. */
  function variablesRead(): string[] {
    const src = code('libs/config/src/config.ts');
    const direct = [...src.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]);
    const rateLimits = [...src.matchAll(/'(SVC_RATE_LIMIT_[A-Z_]+)'/g)].map((m) => m[1]);
    const keys = [...src.matchAll(/\bname: '([A-Z][A-Z0-9_]+)'/g)].flatMap((m) => [m[1], `${m[1]}_FILE`]);
    return [...new Set([...direct, ...rateLimits, ...keys])].sort();
  }

  /** The variables in the first column of the table (`` | `A`, `B` | … ``). */
  function variablesDocumented(): string[] {
    const rows = read('docs/configuration.md').matchAll(/^\| (`[A-Z][A-Z0-9_]+`(?:, `[A-Z][A-Z0-9_]+`)*) \|/gm);
    return [...new Set([...rows].flatMap((m) => [...m[1].matchAll(/`([A-Z0-9_]+)`/g)].map((v) => v[1])))].sort();
  }

  test('the table lists exactly the variables the configuration reads', () => {
    expect(variablesRead().length).toBeGreaterThan(30);
    expect(variablesDocumented()).toEqual(variablesRead());
  });

  test('the hosted pages read only the two variables the page says', () => {
    const src = code('apps/pay/lib/config.ts');
    expect([...new Set([...src.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]))].sort()).toEqual([
      'BASE_URL',
      'SVC_ENV',
    ]);
    expect(read('docs/configuration.md')).toContain('only `BASE_URL` (the API they call) and `SVC_ENV`');
  });
});

describe('operations.md: which containers get which secret, from docker/compose.yml', () => {
  const compose = parse(read('docker/compose.yml'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string> }>;
  };
  /** The services whose environment names the variable, in the file's order, as the page lists them. */
  const holders = (variable: string) => {
    const names = Object.entries(compose.services)
      .filter(([, service]) => service.environment?.[variable] !== undefined)
      .map(([name]) => name);
    return names.join(', ').replace(/, ([^,]+)$/, ' and $1');
  };
  const docker = section(read('docs/operations.md'), 'Docker').replace(/\s+/g, ' ');

  test('the seed, the data key and the destination key', () => {
    expect(holders('SVC_MNEMONIC_FILE')).toBe('signer');
    expect(docker).toContain(`mounted only into the ${holders('SVC_MNEMONIC_FILE')}, which reads it`);
    expect(docker).toContain(`is mounted only into ${holders('SVC_DATA_KEY_FILE')};`);
    expect(docker).toContain(
      `\`docker/secrets/destination-key.txt\`) only into ${holders('SVC_DESTINATION_KEY_FILE')} (`,
    );
  });
});

describe('operations.md: the metrics, from the code', () => {
  /** Every .ts file under a directory, specs left out. */
  function sources(dir: string): string[] {
    return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : sources(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
    });
  }

  test('the table lists exactly the metrics the processes register', () => {
    const registered = [...sources('apps'), ...sources('libs')].flatMap((file) =>
      [...read(file).matchAll(/\.(?:gauge|counter|histogram)\(\s*'([a-z_]+)'/g)].map((m) => m[1]),
    );
    const rows = section(read('docs/operations.md'), 'Metrics').matchAll(/^\| [a-z]+ \| ([^|]+) \|/gm);
    const documented = [...rows].flatMap((m) => [...m[1].matchAll(/`([a-z_]+)`/g)].map((v) => v[1]));
    expect(registered.length).toBeGreaterThan(8);
    expect([...new Set(documented)].sort()).toEqual([...new Set(registered)].sort());
  });
});
