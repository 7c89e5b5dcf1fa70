// An HTTP server speaking Sui's GraphQL RPC wire protocol over a SuiChain: what
// @mysten/sui's SuiGraphQLClient sends (POST, JSON {query, variables, operationName,
// extensions}) and what the real service (sui-indexer-alt-graphql) answers. See ./index.ts for
// the operations and fields it implements.
import { bcs } from '@mysten/sui/bcs';
import { fromBase64, normalizeStructTag, toBase64 } from '@mysten/sui/utils';
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
import {
  CoinObject,
  SuiChain,
  StoredBalanceChange,
  StoredCheckpoint,
  StoredTransaction,
  coinObjectType,
  coinType as canonicalCoinType,
  suiAddress,
} from './chain';
import { executeSignedTransaction, SuiTransactionRejected } from './execute';

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
/** Valid documents kept parsed (the service's clients send a handful of texts; emptied when full). */
const DOCUMENT_CACHE_SIZE = 500;
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
      // null for a digest the service does not show (unknown, or past the watermark), as the real one
      multiGetTransactionEffects: (args: { keys: string[] }) =>
        args.keys.map((digest) => {
          const tx = this.visibleTransaction(digest, scope);
          return tx ? this.effects(tx, scope) : null;
        }),
      transactions: (args: PageArgs & { filter?: TransactionFilter | null }) =>
        this.transactions(this.chain.allTransactions(), args, scope),
      // What Transaction.build needs when resolving offline: the reference gas price, the
      // sender's coins (Address.objects filtered by Coin<T>) and object versions and digests.
      epoch: (args: { epochId?: number | null }) =>
        (uint53('epochId', args.epochId) ?? 0) === 0 ? this.epoch(scope) : null,
      address: (args: { address: string }) => this.address(suiAddress(args.address), scope),
      object: (args: { address: string; version?: number | null }) => {
        const coin = this.chain.objects.get(suiAddress(args.address));
        const version = uint53('version', args.version);
        return coin && (version === null || BigInt(version) === coin.version) ? this.object(coin, scope) : null;
      },
      multiGetObjects: (args: { keys: Array<{ address: string; version?: number | null }> }) =>
        args.keys.map((k) => {
          const coin = this.chain.objects.get(suiAddress(k.address));
          const version = uint53('version', k.version);
          return coin && (version === null || BigInt(version) === coin.version) ? this.object(coin, scope) : null;
        }),
      // Query.simulateTransaction with BCS bytes ({bcs: {value}}), what the SDK's dry run sends:
      // the node's checks but signatures, the effects it would have, nothing written.
      simulateTransaction: async (args: { transaction: unknown }) => {
        const value = (args.transaction as { bcs?: { value?: unknown } } | null)?.bcs?.value;
        if (typeof value !== 'string') {
          throw badUserInput('devnet: simulateTransaction takes {"bcs": {"value": <Base64 TransactionData>}} only');
        }
        try {
          const tx = await executeSignedTransaction(this.chain, fromBase64(value), [], { dryRun: true });
          return { effects: this.effects(tx, scope), error: null, events: [], outputs: [] };
        } catch (err) {
          if (err instanceof SuiTransactionRejected) return { effects: null, error: err.message };
          throw err;
        }
      },
      // Mutation.executeTransaction: a refusal comes back in `errors` (the node's message), an
      // executed transaction (success or failure) with its effects, final at once.
      executeTransaction: async (args: { transactionDataBcs: string; signatures: string[] }) => {
        let bytes: Uint8Array;
        try {
          bytes = fromBase64(args.transactionDataBcs);
        } catch {
          throw badUserInput('Failed to parse "Base64": Invalid Base64');
        }
        try {
          const tx = await executeSignedTransaction(this.chain, bytes, args.signatures);
          return { effects: this.effects(tx, { viewedAt: this.chain.latest.sequenceNumber }), errors: null };
        } catch (err) {
          if (err instanceof SuiTransactionRejected) return { effects: null, errors: [err.message] };
          throw err;
        }
      },
    };
  }

  private epoch(scope: Scope) {
    return {
      epochId: 0,
      referenceGasPrice: this.chain.referenceGasPrice.toString(),
      startTimestamp: new Date(this.chain.checkpoints[0].timestampMs).toISOString(),
      totalCheckpoints: scope.viewedAt + 1,
    };
  }

  private address(address: string, scope: Scope) {
    const owned = () => this.chain.coinsOf(address);
    const balance = (type: string) => {
      const t = canonicalCoinType(type);
      return { coinType: { repr: t }, totalBalance: this.chain.balanceOf(address, t).toString() };
    };
    return {
      address,
      balance: (args: { coinType: string }) => balance(args.coinType),
      multiGetBalances: (args: { keys: string[] }) => args.keys.map(balance),
      balances: (args: PageArgs) => {
        const types = [...new Set(owned().map((c) => c.coinType))].sort();
        return paginate(
          types.map((t, i) => ({ t, i })),
          (x) => x.i,
          args,
          ({ t }) => balance(t),
        );
      },
      objects: (args: PageArgs & { filter?: { type?: string | null } | null }) => {
        const wanted = args.filter?.type ? typeMatcher(args.filter.type) : () => true;
        const coins = owned()
          .filter((c) => wanted(coinObjectType(c.coinType)))
          .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        return paginate(
          coins.map((c, i) => ({ c, i })),
          (x) => x.i,
          args,
          ({ c }) => this.object(c, scope),
        );
      },
    };
  }

  /** A coin as both Object and MoveObject (the fields the SDK's fragments read). */
  private object(coin: CoinObject, scope: Scope): Record<string, unknown> {
    const contents = {
      type: { repr: coinObjectType(coin.coinType) },
      bcs: toBase64(COIN_BCS.serialize({ id: coin.id, balance: coin.balance.toString() }).toBytes()),
      json: { id: coin.id, balance: coin.balance.toString() },
    };
    const node: Record<string, unknown> = {
      address: coin.id,
      version: Number(coin.version),
      digest: coin.digest,
      owner: { __typename: 'AddressOwner', address: { address: coin.owner } },
      contents,
      hasPublicTransfer: true,
      previousTransaction: () => {
        const tx = this.visibleTransaction(coin.previousTransaction, scope);
        return tx ? this.transaction(tx, scope) : { digest: coin.previousTransaction };
      },
    };
    node.asMoveObject = node;
    return node;
  }

  private visibleTransaction(digest: string, scope: Scope): StoredTransaction | undefined {
    const tx = this.chain.transaction(digest);
    return tx && tx.checkpoint <= scope.viewedAt ? tx : undefined;
  }

  private transactions(all: StoredTransaction[], args: PageArgs & { filter?: TransactionFilter | null }, scope: Scope) {
    const f = args.filter ?? {};
    for (const unsupported of ['function', 'kind', 'affectedObject'] as const) {
      if (f[unsupported] !== null && f[unsupported] !== undefined) {
        throw badUserInput(`devnet: the ${unsupported} filter is not implemented`);
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
      transactionBcs: tx.executed?.transactionBcs ?? null,
      signatures: (tx.executed?.signatures ?? []).map((signatureBytes) => ({ signatureBytes })),
      effects: () => this.effects(tx, scope),
    };
  }

  private effects(tx: StoredTransaction, scope: Scope) {
    // a simulated transaction (checkpoint -1) is in no checkpoint
    const cp = this.chain.checkpoints[tx.checkpoint] as StoredCheckpoint | undefined;
    return {
      digest: tx.digest,
      effectsDigest: tx.effectsDigest,
      status: tx.status,
      timestamp: cp ? new Date(cp.timestampMs).toISOString() : null,
      checkpoint: () => (cp ? this.checkpoint(cp, scope) : null),
      transaction: () => this.transaction(tx, scope),
      effectsBcs: tx.executed?.effectsBcs ?? null,
      lamportVersion: tx.executed ? Number(tx.executed.lamportVersion) : null,
      epoch: () => this.epoch(scope),
      unchangedConsensusObjects: (args: PageArgs) =>
        paginate(
          [],
          () => 0,
          args,
          () => null,
        ),
      objectChanges: (args: PageArgs) =>
        paginate(
          (tx.executed?.objectChanges ?? []).map((c, i) => ({ c, i })),
          (x) => x.i,
          args,
          ({ c }) => ({
            address: c.address,
            idCreated: c.input === null,
            idDeleted: c.output === null,
            inputState: c.input && this.object(c.input, scope),
            outputState: c.output && this.object(c.output, scope),
          }),
        ),
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

const COIN_BCS = bcs.struct('Coin', { id: bcs.Address, balance: bcs.u64() });

/**
 * ObjectFilter.type: a package (`0x2`), a module (`0x2::coin`), a type without its parameters
 * (`0x2::coin::Coin`, every instantiation) or a full type (`0x2::coin::Coin<0x2::sui::SUI>`).
 */
function typeMatcher(filter: string): (type: string) => boolean {
  if (filter.includes('<')) {
    const full = normalizeStructTag(filter);
    return (t) => t === full;
  }
  const parts = filter.split('::');
  if (parts.length === 3) {
    const bare = normalizeStructTag(filter);
    return (t) => t.split('<')[0] === bare;
  }
  const pkg = suiAddress(parts[0]);
  return (t) => {
    const [p, m] = t.split('::');
    return p === pkg && (parts.length === 1 || m === parts[1]);
  };
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

export interface DevnetFault {
  /** HTTP status to answer with (503 unavailable, 429 rate limited, …) */
  status: number;
  /** how many requests to fail; Infinity until cleared */
  times: number;
}

/** The HTTP side: POST /graphql (and /), JSON in and out, faults and outages on demand. */
export class SuiGraphQLServer {
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private port = 0;
  private fault: DevnetFault | null = null;
  private lag = 0;
  private readonly resolvers: Resolvers;
  private readonly documents = new Map<string, DocumentNode>();

  constructor(readonly chain: SuiChain) {
    this.resolvers = new Resolvers(chain);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/graphql`;
  }

  /** Connections open to the server now (a client's kept-alive ones included). */
  get connections(): number {
    return this.sockets.size;
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
      this.answer(body, req.headers['content-type']).then(
        (out) => send(200, out),
        (err: Error) =>
          send(500, { errors: [{ message: err.message, extensions: { code: 'INTERNAL_SERVER_ERROR' } }] }),
      );
    });
  }

  private async answer(
    body: { query?: unknown; variables?: unknown; operationName?: unknown },
    contentType: string | undefined,
  ): Promise<unknown> {
    if (typeof body.query !== 'string') {
      return { errors: [{ message: 'missing query', extensions: { code: 'BAD_REQUEST' } }] };
    }
    const variables = (body.variables ?? {}) as Record<string, unknown>;
    const operationName = typeof body.operationName === 'string' ? body.operationName : null;
    this.requests.push({ operationName, query: body.query, variables, contentType });
    // a document parsed and validated once answers every request with the same text (the schema
    // is fixed): what a GraphQL service's document cache does; a refused document is checked again
    let document = this.documents.get(body.query);
    if (!document) {
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
      if (this.documents.size >= DOCUMENT_CACHE_SIZE) this.documents.clear();
      this.documents.set(body.query, document);
    }
    const viewedAt = Math.max(this.chain.latest.sequenceNumber - this.lag, 0);
    const root = this.resolvers.query({ viewedAt });
    const fieldResolver: GraphQLFieldResolver<unknown, unknown> = (source, args, ctx, info) => {
      if ((info.parentType.name === 'Query' || info.parentType.name === 'Mutation') && !(info.fieldName in root)) {
        throw new GraphQLError(`devnet: ${info.parentType.name}.${info.fieldName} is not implemented`, {
          extensions: { code: 'INTERNAL_SERVER_ERROR' },
        });
      }
      return defaultFieldResolver(source, args, ctx, info);
    };
    // Reads resolve synchronously; executeTransaction (signature checks) is the one promise.
    const result = (await execute({
      schema: schema(),
      document,
      rootValue: root,
      variableValues: variables,
      operationName,
      fieldResolver,
    })) as {
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
