// `npm run svc -- listen --forward-to <url>` (runtime contract › Operator CLI), like `stripe listen`:
// follows the workspace's events through the API (`GET /v1/events?tail=true`, re-reading the last
// minute and deduplicating by id, so an event that commits late is not skipped) and re-posts each
// one to a local URL, signed with a local secret printed at start, one line per delivery. State
// (the secret, how far it got, the ids of the last minute) is kept under `.svc/listen/`, so a
// restart resumes where it stopped and forwards nothing twice.
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SvcConfig } from '@svc/config';
import { parseEventFilters, signTimestampedWebhook, signWebhookBody } from '@svc/webhooks';
import { parseOptions, requireOption, UsageError } from '../cli-args';

export interface ListenArgs {
  forwardTo: string;
  /** comma-separated webhook filters (`payment.*`, `checkout.session.completed` …); null: every event */
  events: string | null;
  apiKey: string | null;
  apiUrl: string | null;
  intervalMs: number;
}

export function parseListenArgs(args: string[]): ListenArgs {
  const values = parseOptions('listen', args, {
    'forward-to': { type: 'string' },
    events: { type: 'string' },
    'api-key': { type: 'string' },
    'api-url': { type: 'string' },
    'interval-ms': { type: 'string' },
  });
  const forwardTo = requireOption('listen', 'forward-to', values['forward-to']);
  if (!isHttpUrl(forwardTo)) throw new UsageError(`listen: --forward-to must be an http(s) URL, got "${forwardTo}".`);
  const apiUrl = values['api-url'] ?? null;
  if (apiUrl !== null && !isHttpUrl(apiUrl)) throw new UsageError(`listen: --api-url must be an http(s) URL.`);
  const events = values.events?.trim() || null;
  if (events !== null) {
    const parsed = parseEventFilters(events.split(',').map((e) => e.trim()));
    if (!parsed.ok) throw new UsageError(`listen: --events: ${parsed.message.replace(/^eventTypes/, 'the filter')}`);
  }
  const interval = values['interval-ms'] ?? '1000';
  if (!/^\d+$/.test(interval) || Number(interval) < 100 || Number(interval) > 60_000) {
    throw new UsageError('listen: --interval-ms must be an integer from 100 to 60000.');
  }
  return { forwardTo, events, apiKey: values['api-key'] ?? null, apiUrl, intervalMs: Number(interval) };
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

interface Envelope {
  id: string;
  type: string;
  createdAt: string;
  data: unknown;
}

interface ListenState {
  secret: string;
  /** the newest createdAt forwarded (or skipped at the first start) */
  since: string | null;
  /** ids seen in the last minutes, with their createdAt: what a re-read must not forward again */
  seen: Record<string, string>;
}

/** How far back each read reaches behind `since`: the API withholds nothing with tail=true, so this covers late commits. */
const OVERLAP_MS = 65_000;
/** Seen ids are kept this long behind `since`. */
const KEEP_MS = 3 * 60_000;
const FORWARD_TIMEOUT_MS = 10_000;

export class ListenCommand {
  private stopped = false;
  private wake: (() => void) | null = null;

  constructor(
    private readonly config: SvcConfig,
    private readonly out: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
  ) {}

  async run(args: ListenArgs): Promise<void> {
    const apiUrl = (args.apiUrl ?? this.config.baseUrl).replace(/\/+$/, '');
    const apiKey = args.apiKey ?? this.demoKey();
    if (!apiKey) {
      throw new UsageError(
        'listen: --api-key <key> is required (outside `npm run dev`, which keeps one in .svc/demo-api-key).',
      );
    }
    const file = this.stateFile(apiUrl, apiKey, args.events);
    const state = this.load(file);
    const stop = () => {
      this.stopped = true;
      this.wake?.();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      if (state.since === null) await this.skipExisting(apiUrl, apiKey, args, state);
      this.save(file, state);
      this.out(
        `Ready: forwarding ${args.events ? `${args.events} events` : 'every event'} of ${apiUrl} to ${args.forwardTo}` +
          ` (signed with the local secret ${state.secret}; Ctrl-C to stop)`,
      );
      while (!this.stopped) {
        for (const event of await this.read(apiUrl, apiKey, args, state)) {
          if (this.stopped) break;
          await this.forward(args.forwardTo, event, state.secret);
          this.remember(state, event);
          this.save(file, state);
        }
        await this.sleep(args.intervalMs);
      }
    } finally {
      process.removeListener('SIGINT', stop);
      process.removeListener('SIGTERM', stop);
    }
  }

  /** A first start forwards what happens from now on: what the API already holds is marked seen. */
  private async skipExisting(apiUrl: string, apiKey: string, args: ListenArgs, state: ListenState): Promise<void> {
    const { events, serverTime } = await this.page(apiUrl, apiKey, args, null);
    state.since = serverTime.toISOString();
    for (const e of events) this.remember(state, e);
  }

  /** Every event since `since` − overlap not yet seen, oldest first (all pages). */
  private async read(apiUrl: string, apiKey: string, args: ListenArgs, state: ListenState): Promise<Envelope[]> {
    const from = new Date(new Date(state.since as string).getTime() - OVERLAP_MS);
    const { events } = await this.page(apiUrl, apiKey, args, from).catch((err: Error) => {
      this.out(`${new Date().toISOString()}  cannot read events: ${err.message} (retrying)`);
      return { events: [] as Envelope[] };
    });
    return events.filter((e) => state.seen[e.id] === undefined);
  }

  private async page(
    apiUrl: string,
    apiKey: string,
    args: ListenArgs,
    from: Date | null,
  ): Promise<{ events: Envelope[]; serverTime: Date }> {
    const events: Envelope[] = [];
    let cursor: string | null = null;
    let serverTime = new Date();
    // With no start (a first run), everything of the last ten minutes is marked seen.
    const after = from ?? new Date(Date.now() - 10 * 60_000);
    for (;;) {
      const q = new URLSearchParams({ tail: 'true', limit: '100' });
      if (cursor) q.set('cursor', cursor);
      else q.set('createdAfter', after.toISOString());
      if (args.events) q.set('type', args.events);
      const res = await fetch(`${apiUrl}/v1/events?${q}`, {
        headers: { 'x-api-key': apiKey },
        signal: AbortSignal.timeout(15_000),
      });
      const body = (await res.json().catch(() => null)) as {
        data?: Envelope[];
        hasMore?: boolean;
        nextCursor?: string | null;
        message?: unknown;
      } | null;
      if (!res.ok || !body?.data) {
        throw new Error(`GET /v1/events answered ${res.status}${body?.message ? `: ${String(body.message)}` : ''}`);
      }
      const date = res.headers.get('date');
      if (date) serverTime = new Date(date);
      events.push(...body.data);
      if (!body.hasMore || !body.nextCursor) break;
      cursor = body.nextCursor;
    }
    for (const e of events) if (e.createdAt > serverTime.toISOString()) serverTime = new Date(e.createdAt);
    return { events, serverTime };
  }

  /** Re-posts one event as the worker would, signed with the local secret; one line says what came back. */
  private async forward(url: string, event: Envelope, secret: string): Promise<void> {
    const body = JSON.stringify(event);
    const started = Date.now();
    let outcome: string;
    try {
      const res = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'svc-listen/1',
          'x-svc-signature': signWebhookBody(body, secret),
          // the local clock: a receiver's 5-minute tolerance is judged on its own
          'svc-signature': signTimestampedWebhook(body, [secret], Math.floor(Date.now() / 1000)),
          'x-svc-event-id': event.id,
          'x-svc-event-type': event.type,
          'x-svc-attempt': '1',
        },
        body,
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      outcome = `[${res.status}]`;
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      outcome = `[failed: ${cause ?? (err as Error).name}]`;
    }
    this.out(`${event.createdAt}  ${event.type}  ${event.id}  → POST ${url} ${outcome} (${Date.now() - started} ms)`);
  }

  private remember(state: ListenState, event: Envelope): void {
    state.seen[event.id] = event.createdAt;
    if (state.since === null || event.createdAt > state.since) state.since = event.createdAt;
    const keepAfter = new Date(new Date(state.since).getTime() - KEEP_MS).toISOString();
    for (const [id, at] of Object.entries(state.seen)) if (at < keepAfter) delete state.seen[id];
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** `npm run dev` keeps the demo workspace's key here. */
  private demoKey(): string | null {
    const file = path.resolve('.svc', 'demo-api-key');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() || null : null;
  }

  /** One state per (API, key, filter): the key itself is never written, only a hash names the file. */
  private stateFile(apiUrl: string, apiKey: string, events: string | null): string {
    const name = createHash('sha256')
      .update(`${apiUrl}\n${apiKey}\n${events ?? ''}`)
      .digest('hex')
      .slice(0, 16);
    return path.resolve('.svc', 'listen', `${name}.json`);
  }

  private load(file: string): ListenState {
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as ListenState;
    return { secret: `whsec_${randomBytes(32).toString('hex')}`, since: null, seen: {} };
  }

  private save(file: string, state: ListenState): void {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
    fs.renameSync(tmp, file);
  }
}
