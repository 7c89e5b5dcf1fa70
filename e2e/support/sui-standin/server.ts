// An HTTP server speaking Sui's GraphQL RPC wire protocol over a SuiChain: what
// @mysten/sui's SuiGraphQLClient sends (POST, JSON {query, variables, operationName,
// extensions}) and what the real service (sui-indexer-alt-graphql) answers. See ./index.ts for
// the operations and fields it implements.
import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { dirname, join } from 'node:path';
import {
  buildSchema,
  defaultFieldResolver,
  execute,
  GraphQLError,
  GraphQLFieldResolver,
  GraphQLSchema,
  parse,
  validate,
  type DocumentNode,
} from 'graphql';
import { SuiChain, StoredBalanceChange, StoredCheckpoint, StoredTransaction, suiAddress } from './chain';

// The schema the installed client is generated from (@mysten/sui's `graphql/schemas/latest`), so
// a query the real service would reject for its shape is rejected here too.
function loadSchema(): GraphQLSchema {
  const pkgRoot = join(dirname(require.resolve('@mysten/sui/graphql')), '..', '..', '..');
  return buildSchema(readFileSync(join(pkgRoot, 'src/graphql/generated/latest/schema.graphql'), 'utf8'));
}

let schemaCache: GraphQLSchema | null = null;
const schema = (): GraphQLSchema => (schemaCache ??= loadSchema());

// The service's ServiceConfig defaults: page size 20 unless asked, 50 at most.
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;

const badUserInput = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });

// Cursors are JsonCursor<u64 | usize>: the key as JSON, then standard Base64 (with padding).
const encodeCursor = (key: number): string => Buffer.from(JSON.stringify(key)).toString('base64');
function decodeCursor(cursor: string | null | undefined): number | null {
  if (cursor === null || cursor === undefined) return null;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(cursor)) throw badUserInput('Failed to parse "String": Invalid Base64');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
  } catch {
    throw badUserInput('Failed to parse "String": Invalid JSON');
  }
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw badUserInput('Failed to parse "String": Invalid JSON');
  return value as number;
}

interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

interface Connection<N> {
  edges: Array<{ cursor: string; node: N }>;
  nodes: N[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** Page::from_params + paginate_results: `items` sorted by key, bounded by the cursors. */
function paginate<T, N>(items: T[], keyOf: (t: T) => number, args: PageArgs, node: (t: T) => N): Connection<N> {
  const { first, last } = args;
  if (first !== null && first !== undefined && last !== null && last !== undefined) {
    throw badUserInput("Cannot provide both 'first' and 'last' parameters for connection");
  }
  const limit = first ?? last ?? DEFAULT_PAGE_SIZE;
  if (limit < 0) throw badUserInput(`Failed to parse "Int": Invalid value`);
  if (limit > MAX_PAGE_SIZE) throw badUserInput(`Page size of ${limit} exceeds max of ${MAX_PAGE_SIZE} for connection`);
  const after = decodeCursor(args.after);
  const before = decodeCursor(args.before);
  const inRange = items.filter((t) => (after === null || keyOf(t) > after) && (before === null || keyOf(t) < before));
  const fromBack = last !== null && last !== undefined;
  const page = fromBack ? inRange.slice(Math.max(inRange.length - limit, 0)) : inRange.slice(0, limit);
  if (!page.length) {
    return {
      edges: [],
      nodes: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    };
  }
  const edges = page.map((t) => ({ cursor: encodeCursor(keyOf(t)), node: node(t) }));
  const firstKey = keyOf(page[0]);
  const lastKey = keyOf(page[page.length - 1]);
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasPreviousPage: items.some((t) => keyOf(t) < firstKey),
      hasNextPage: items.some((t) => keyOf(t) > lastKey),
      startCursor: edges[0].cursor,
      endCursor: edges[edges.length - 1].cursor,
    },
  };
}

interface Scope {
  /** checkpoint the whole request is answered at (the indexer's watermark) */
  viewedAt: number;
}

interface TransactionFilter {
  afterCheckpoint?: number | null;
  atCheckpoint?: number | null;
  beforeCheckpoint?: number | null;
  sentAddress?: string | null;
  affectedAddress?: string | null;
  function?: string | null;
  kind?: string | null;
  affectedObject?: string | null;
}

const uint53 = (name: string, v: unknown): number | null => {
  if (v === null || v === undefined) return null;
  if (!Number.isSafeInteger(v) || (v as number) < 0)
    throw badUserInput(`Failed to parse "UInt53": Invalid number for ${name}`);
  return v as number;
};

/** The resolvers: plain objects whose properties graphql-js' default resolver reads or calls. */
class Resolvers {
  constructor(private readonly chain: SuiChain) {}

  query(scope: Scope) {
    return {
      chainIdentifier: () => this.chain.chainIdentifier,
      checkpoint: (args: { sequenceNumber?: number | null }) => {
        const seq = uint53('sequenceNumber', args.sequenceNumber) ?? scope.viewedAt;
        const cp = seq <= scope.viewedAt ? this.chain.checkpoints[seq] : undefined;
        return cp ? this.checkpoint(cp, scope) : null;
      },
      checkpoints: (
        args: PageArgs & {
          filter?: { afterCheckpoint?: number; atCheckpoint?: number; beforeCheckpoint?: number } | null;
        },
      ) => {
        const f = args.filter ?? {};
        const visible = this.chain.checkpoints.slice(0, scope.viewedAt + 1).filter((c) => {
          const after = uint53('afterCheckpoint', f.afterCheckpoint);
          const at = uint53('atCheckpoint', f.atCheckpoint);
          const before = uint53('beforeCheckpoint', f.beforeCheckpoint);
          return (
            (after === null || c.sequenceNumber > after) &&
            (at === null || c.sequenceNumber === at) &&
            (before === null || c.sequenceNumber < before)
          );
        });
        return paginate(
          visible,
          (c) => c.sequenceNumber,
          args,
          (c) => this.checkpoint(c, scope),
        );
      },
      transaction: (args: { digest: string }) => {
        const tx = this.visibleTransaction(args.digest, scope);
        return tx ? this.transaction(tx, scope) : null;
      },
      transactionEffects: (args: { digest: string }) => {
        const tx = this.visibleTransaction(args.digest, scope);
        return tx ? this.effects(tx, scope) : null;
      },
      transactions: (args: PageArgs & { filter?: TransactionFilter | null }) =>
        this.transactions(this.chain.allTransactions(), args, scope),
    };
  }

  private visibleTransaction(digest: string, scope: Scope): StoredTransaction | undefined {
    const tx = this.chain.transaction(digest);
    return tx && tx.checkpoint <= scope.viewedAt ? tx : undefined;
  }

  private transactions(all: StoredTransaction[], args: PageArgs & { filter?: TransactionFilter | null }, scope: Scope) {
    const f = args.filter ?? {};
    for (const unsupported of ['function', 'kind', 'affectedObject'] as const) {
      if (f[unsupported] !== null && f[unsupported] !== undefined) {
        throw badUserInput(`stand-in: the ${unsupported} filter is not implemented`);
      }
    }
    const after = uint53('afterCheckpoint', f.afterCheckpoint);
    const at = uint53('atCheckpoint', f.atCheckpoint);
    const before = uint53('beforeCheckpoint', f.beforeCheckpoint);
    const sent = f.sentAddress ? suiAddress(f.sentAddress) : null;
    const affected = f.affectedAddress ? suiAddress(f.affectedAddress) : null;
    const matching = all.filter(
      (t) =>
        t.checkpoint <= scope.viewedAt &&
        (after === null || t.checkpoint > after) &&
        (at === null || t.checkpoint === at) &&
        (before === null || t.checkpoint < before) &&
        (sent === null || t.sender === sent) &&
        (affected === null || t.sender === affected || t.balanceChanges.some((c) => c.owner === affected)),
    );
    return paginate(
      matching,
      (t) => t.txSequenceNumber,
      args,
      (t) => this.transaction(t, scope),
    );
  }

  private checkpoint(cp: StoredCheckpoint, scope: Scope) {
    return {
      sequenceNumber: cp.sequenceNumber,
      digest: cp.digest,
      contentDigest: cp.contentDigest,
      previousCheckpointDigest: cp.previousCheckpointDigest,
      timestamp: new Date(cp.timestampMs).toISOString(),
      networkTotalTransactions: cp.networkTotalTransactions,
      transactions: (args: PageArgs & { filter?: TransactionFilter | null }) =>
        this.transactions(cp.transactions, args, scope),
    };
  }

  private transaction(tx: StoredTransaction, scope: Scope): Record<string, unknown> {
    return {
      digest: tx.digest,
      sender: tx.sender === null ? null : { address: tx.sender },
      effects: () => this.effects(tx, scope),
    };
  }

  private effects(tx: StoredTransaction, scope: Scope) {
    const cp = this.chain.checkpoints[tx.checkpoint];
    return {
      digest: tx.digest,
      effectsDigest: tx.effectsDigest,
      status: tx.status,
      timestamp: new Date(cp.timestampMs).toISOString(),
      checkpoint: () => this.checkpoint(cp, scope),
      transaction: () => this.transaction(tx, scope),
      balanceChanges: (args: PageArgs) =>
        paginate(
          tx.balanceChanges.map((c, i) => ({ c, i })),
          (x) => x.i,
          args,
          ({ c }) => balanceChange(c),
        ),
    };
  }
}

const balanceChange = (c: StoredBalanceChange) => ({
  owner: c.owner === null ? null : { address: c.owner },
  coinType: { repr: c.coinType },
  amount: c.amount.toString(), // BigInt scalar: a decimal string, signed
});

export interface RecordedRequest {
  operationName: string | null;
  query: string;
  variables: Record<string, unknown>;
  contentType: string | undefined;
}

export interface StandInFault {
  /** HTTP status to answer with (503 unavailable, 429 rate limited, …) */
  status: number;
  /** how many requests to fail; Infinity until cleared */
  times: number;
}

/** The HTTP side: POST /graphql (and /), JSON in and out, faults and outages on demand. */
export class SuiGraphQLStandInServer {
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  private fault: StandInFault | null = null;
  private lag = 0;
  private readonly resolvers: Resolvers;

  constructor(readonly chain: SuiChain) {
    this.resolvers = new Resolvers(chain);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/graphql`;
  }

  get isUp(): boolean {
    return this.server !== null;
  }

  /** Listens (again) on the same port as before, or a free one the first time. */
  async up(port = this.port): Promise<this> {
    if (this.server) return this;
    const server = createServer((req, res) => this.handle(req, res));
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Goes away: refuses connections until `up()`. */
  async down(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Answers the next `times` requests with an HTTP error instead of GraphQL. */
  failNext(times: number, status = 503): void {
    this.fault = { status, times };
  }

  clearFaults(): void {
    this.fault = null;
    this.lag = 0;
  }

  /** Serves a watermark `checkpoints` behind the chain's head, like an indexer catching up. */
  lagBehind(checkpoints: number): void {
    this.lag = checkpoints;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const path = (req.url ?? '/').split('?')[0];
      if (path !== '/graphql' && path !== '/') return send(404, { errors: [{ message: 'Not Found' }] });
      if (req.method !== 'POST') return send(405, { errors: [{ message: 'Method Not Allowed' }] });
      if (this.fault && this.fault.times > 0) {
        this.fault.times -= 1;
        const status = this.fault.status;
        if (this.fault.times <= 0) this.fault = null;
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(status === 429 ? 'Too Many Requests' : 'Service Unavailable');
        return;
      }
      let body: { query?: unknown; variables?: unknown; operationName?: unknown };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { errors: [{ message: 'Invalid JSON body', extensions: { code: 'BAD_REQUEST' } }] });
      }
      send(200, this.answer(body, req.headers['content-type']));
    });
  }

  private answer(
    body: { query?: unknown; variables?: unknown; operationName?: unknown },
    contentType: string | undefined,
  ): unknown {
    if (typeof body.query !== 'string') {
      return { errors: [{ message: 'missing query', extensions: { code: 'BAD_REQUEST' } }] };
    }
    const variables = (body.variables ?? {}) as Record<string, unknown>;
    const operationName = typeof body.operationName === 'string' ? body.operationName : null;
    this.requests.push({ operationName, query: body.query, variables, contentType });
    let document: DocumentNode;
    try {
      document = parse(body.query);
    } catch (e) {
      const err = e as GraphQLError;
      return {
        errors: [{ message: err.message, locations: err.locations, extensions: { code: 'GRAPHQL_PARSE_FAILED' } }],
      };
    }
    const invalid = validate(schema(), document);
    if (invalid.length) {
      return {
        errors: invalid.map((e) => ({
          message: e.message,
          locations: e.locations,
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
        })),
      };
    }
    const viewedAt = Math.max(this.chain.latest.sequenceNumber - this.lag, 0);
    const root = this.resolvers.query({ viewedAt });
    const fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, ctx, info) => {
      if (info.parentType.name === 'Query' && !(info.fieldName in root)) {
        throw new GraphQLError(`stand-in: Query.${info.fieldName} is not implemented`, {
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        });
      }
      return defaultFieldResolver(source, args, ctx, info);
    };
    // Synchronous resolvers only, so the result is never a promise.
    const result = execute({
      schema: schema(),
      document,
      rootValue: root,
      variableValues: variables,
      operationName,
      fieldResolver,
    }) as {
      data?: unknown;
      errors?: readonly GraphQLError[];
    };
    const out: Record<string, unknown> = { data: result.data ?? null };
    if (result.errors?.length) {
      out.errors = result.errors.map((e) => ({
        message: e.message,
        locations: e.locations,
        path: e.path,
        extensions: { code: 'INTERNAL_SERVER_ERROR', ...e.extensions },
      }));
    }
    return out;
  }
}
