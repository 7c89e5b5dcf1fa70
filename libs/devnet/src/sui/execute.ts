// Executing a signed transaction on the devnet's SuiChain the way a full node does, for the
// transactions the service and its tools send: a programmable transaction of SplitCoins,
// MergeCoins and TransferObjects over owned coins, gas paid by the sender or a sponsor.
//
// Two kinds of refusal, as on a node:
// - SuiTransactionRejected: the transaction is not valid (bytes, signatures, gas price or budget,
//   an input object missing, not owned by the signer or not at its current version). Nothing
//   changes; the GraphQL service answers it in `ExecutionResult.errors`. The messages are the
//   node's own (sui-types UserInputError / SuiError), so what the client logs reads the same.
// - an execution failure (InsufficientCoinBalance, InsufficientGas, UnusedValueWithoutDrop, …):
//   the transaction is final with status FAILURE; gas is charged, the inputs' versions are
//   bumped, nothing else moves.
import { createHash, createPublicKey, verify as verifyEd25519, type KeyObject } from 'node:crypto';
import { bcs } from '@mysten/sui/bcs';
import { parseSerializedSignature } from '@mysten/sui/cryptography';
import { Ed25519PublicKey } from '@mysten/sui/keypairs/ed25519';
import { TransactionDataBuilder } from '@mysten/sui/transactions';
import { fromBase64, normalizeSuiAddress, toBase58, toBase64 } from '@mysten/sui/utils';
import { verifyTransactionSignature } from '@mysten/sui/verify';
import { suiTransactionSigningDigest } from '@svc/chains';
import {
  CoinObject,
  ObjectChange,
  SUI,
  StoredTransaction,
  SuiChain,
  TransactionInput,
  coinType as canonicalCoinType,
  digestOf,
  netBalanceChanges,
  suiAddress,
} from './chain';

/** A transaction a node refuses before execution (UserInputError and signature errors). */
export class SuiTransactionRejected extends Error {}

// Gas model (protocol config, simplified to the coin-only transactions the devnet runs): a
// transaction costs at least 1,000 computation units (`base_tx_cost_fixed`, the minimum a
// budget must cover), 988,000 MIST of storage per object written, and gets back 99% of the
// storage of each object it mutates or deletes (the 1% is the non-refundable storage fee).
export const MIN_COMPUTATION_UNITS = 1_000n;
export const STORAGE_COST_PER_OBJECT = 988_000n;
export const STORAGE_REBATE_PER_OBJECT = 978_120n;
export const NON_REFUNDABLE_PER_OBJECT = STORAGE_COST_PER_OBJECT - STORAGE_REBATE_PER_OBJECT;
/** protocol config `max_tx_gas` (50 SUI) */
export const MAX_GAS_BUDGET = 50_000_000_000n;
const MAX_GAS_PRICE = 100_000n;

type Argument =
  | { $kind: 'GasCoin'; GasCoin: true }
  | { $kind: 'Input'; Input: number }
  | { $kind: 'Result'; Result: number }
  | { $kind: 'NestedResult'; NestedResult: [number, number] };

type ObjectRef = { objectId: string; version: string; digest: string };

type ExecutionFailure = { kind: string; command: number | null; fields?: Record<string, unknown> };

class Failure extends Error {
  constructor(readonly failure: ExecutionFailure) {
    super(failure.kind);
  }
}

const fail = (kind: string, command: number | null, fields?: Record<string, unknown>): never => {
  // CommandArgumentError's `kind` is itself an enum in the effects' BCS.
  const f = fields && typeof fields.kind === 'string' ? { ...fields, kind: { [fields.kind]: true } } : fields;
  throw new Failure({ kind, command, fields: f });
};

/** One value of the programmable transaction: a coin (by id) or pure bytes. */
type Value = { coin: string } | { pure: Uint8Array };

/**
 * Verifies, executes and records `transactionBcs` in a checkpoint of its own. With `dryRun`
 * (Query.simulateTransaction) no signature is needed and nothing is written: the result carries
 * the effects it would have (checkpoint -1).
 */
export async function executeSignedTransaction(
  chain: SuiChain,
  transactionBcs: Uint8Array,
  signatures: string[],
  opts: { dryRun?: boolean } = {},
): Promise<StoredTransaction> {
  const dryRun = opts.dryRun ?? false;
  let parsed: ReturnType<typeof bcs.TransactionData.parse>;
  try {
    parsed = bcs.TransactionData.parse(transactionBcs);
  } catch (err) {
    throw new SuiTransactionRejected(`Failed to deserialize transaction data: ${(err as Error).message}`);
  }
  const data = parsed.V1;
  const sender = suiAddress(data.sender);
  const gasOwner = suiAddress(data.gasData.owner);
  const price = BigInt(data.gasData.price);
  const budget = BigInt(data.gasData.budget);
  const txDigest = TransactionDataBuilder.getDigestFromBytes(transactionBcs);

  if (!dryRun && chain.transaction(txDigest)) {
    // A node answers a repeated submission with the effects it already has.
    return chain.transaction(txDigest) as StoredTransaction;
  }
  if (data.kind.$kind !== 'ProgrammableTransaction') {
    throw new SuiTransactionRejected(`Transaction kind ${data.kind.$kind} is not supported by the devnet`);
  }
  // The devnet stays in epoch 0, so an `Epoch(e)` expiration (e >= 0) never has passed.
  if (!dryRun) {
    await checkSignatures(transactionBcs, signatures, sender === gasOwner ? [sender] : [sender, gasOwner]);
  }

  // Gas price and budget (UserInputError::GasPriceUnderRGP, GasBudgetTooLow, GasBudgetTooHigh).
  if (price < chain.referenceGasPrice) {
    throw new SuiTransactionRejected(`Gas price ${price} under reference gas price (RGP) ${chain.referenceGasPrice}`);
  }
  if (price > MAX_GAS_PRICE)
    throw new SuiTransactionRejected(`Gas price ${price} is higher than max: ${MAX_GAS_PRICE}`);
  const minBudget = MIN_COMPUTATION_UNITS * price;
  if (budget < minBudget) throw new SuiTransactionRejected(`Gas budget: ${budget} is lower than min: ${minBudget}.`);
  if (budget > MAX_GAS_BUDGET) {
    throw new SuiTransactionRejected(`Gas budget: ${budget} is higher than max: ${MAX_GAS_BUDGET}.`);
  }

  // Input objects: present, at the version given, with that digest, owned by the right signer.
  const pt = data.kind.ProgrammableTransaction;
  const payment = data.gasData.payment as ObjectRef[];
  if (payment.length === 0) throw new SuiTransactionRejected('Missing gas payment');
  const seen = new Set<string>();
  const checkRef = (ref: ObjectRef, owner: string, what: 'gas' | 'input'): CoinObject => {
    const id = normalizeSuiAddress(ref.objectId);
    const version = BigInt(ref.version);
    if (seen.has(id)) {
      throw new SuiTransactionRejected(`Mutable object ${id} cannot appear more than one in one transaction`);
    }
    seen.add(id);
    const live = chain.objects.get(id);
    if (!live) {
      const deletedAt = chain.deleted.get(id);
      if (deletedAt !== undefined) {
        throw new SuiTransactionRejected(
          `Object ID ${id} Version 0x${version.toString(16)} Digest ${ref.digest} is not available for consumption, current version: 0x${deletedAt.toString(16)}`,
        );
      }
      throw new SuiTransactionRejected(`Could not find the referenced object ${id} at version ${version}`);
    }
    if (live.version !== version) {
      throw new SuiTransactionRejected(
        `Object ID ${id} Version 0x${version.toString(16)} Digest ${ref.digest} is not available for consumption, current version: 0x${live.version.toString(16)}`,
      );
    }
    if (live.digest !== ref.digest) {
      throw new SuiTransactionRejected(`Invalid Object digest for object ${id}. Expected digest : ${live.digest}`);
    }
    if (live.owner !== owner) {
      throw new SuiTransactionRejected(
        `Object ${id} is owned by account address ${live.owner}, but given owner/signer address is ${owner}`,
      );
    }
    if (what === 'gas' && live.coinType !== SUI) throw new SuiTransactionRejected(`Invalid gas object ${id}`);
    return live;
  };
  const gasCoins = payment.map((ref) => checkRef(ref, gasOwner, 'gas'));
  const inputs: Value[] = pt.inputs.map((input, i) => {
    switch (input.$kind) {
      case 'Pure':
        return { pure: fromBase64(input.Pure.bytes) }; // the SDK's BCS type hands pure bytes out as Base64
      case 'Object':
        if (input.Object.$kind !== 'ImmOrOwnedObject') {
          throw new SuiTransactionRejected(
            `Input ${i}: the devnet holds owned coins only, not ${input.Object.$kind} objects`,
          );
        }
        return { coin: checkRef(input.Object.ImmOrOwnedObject as ObjectRef, sender, 'input').id };
      default:
        throw new SuiTransactionRejected(
          `Input ${i}: ${(input as { $kind: string }).$kind} inputs are not supported by the devnet`,
        );
    }
  });
  const gasBalance = gasCoins.reduce((sum, c) => sum + c.balance, 0n);
  if (gasBalance < budget) {
    throw new SuiTransactionRejected(`Balance of gas object ${gasBalance} is lower than the needed amount: ${budget}.`);
  }
  for (const [i, command] of pt.commands.entries()) {
    if (!['SplitCoins', 'MergeCoins', 'TransferObjects'].includes(command.$kind)) {
      throw new SuiTransactionRejected(
        `Command ${i}: the devnet executes SplitCoins, MergeCoins and TransferObjects only, not ${command.$kind}`,
      );
    }
  }

  // Execution. `before` holds every touched object as it was; `work` what it becomes.
  const inputObjects = [
    ...gasCoins,
    ...inputs.flatMap((v) => ('coin' in v ? [chain.objects.get(v.coin) as CoinObject] : [])),
  ];
  const lamport = inputObjects.reduce((max, o) => (o.version > max ? o.version : max), 0n) + 1n;
  const before = new Map(inputObjects.map((o) => [o.id, o]));
  const gasId = gasCoins[0].id;
  const sponsored = sender !== gasOwner;

  const attempt = (): { work: Map<string, CoinObject | null>; created: Set<string> } => {
    const work = new Map<string, CoinObject | null>(inputObjects.map((o) => [o.id, { ...o }]));
    const created = new Set<string>();
    // Gas smashing: every payment coin is merged into the first.
    const gas = work.get(gasId) as CoinObject;
    for (const c of gasCoins.slice(1)) {
      gas.balance += c.balance;
      work.set(c.id, null);
    }
    const results: Value[][] = [];
    /** values moved by value (transferred, merged away); using one again is an error */
    const moved = new Set<string>();
    const coinAt = (arg: Argument, command: number, argIdx: number): CoinObject => {
      let v: Value | undefined;
      switch (arg.$kind) {
        case 'GasCoin':
          if (sponsored) fail('CommandArgumentError', command, { argIdx, kind: 'InvalidGasCoinUsage' });
          v = { coin: gasId };
          break;
        case 'Input':
          v = inputs[arg.Input];
          break;
        case 'Result':
          v = results[arg.Result]?.length === 1 ? results[arg.Result][0] : undefined;
          break;
        case 'NestedResult':
          v = results[arg.NestedResult[0]]?.[arg.NestedResult[1]];
          break;
      }
      if (!v) return fail('CommandArgumentError', command, { argIdx, kind: 'IndexOutOfBounds' });
      if (!('coin' in v)) return fail('CommandArgumentError', command, { argIdx, kind: 'TypeMismatch' });
      const coin = work.get(v.coin);
      if (!coin || moved.has(v.coin))
        return fail('CommandArgumentError', command, { argIdx, kind: 'InvalidValueUsage' });
      return coin;
    };
    const pureAt = (arg: Argument, command: number, argIdx: number): Uint8Array => {
      const v = arg.$kind === 'Input' ? inputs[arg.Input] : undefined;
      if (!v || !('pure' in v)) return fail('CommandArgumentError', command, { argIdx, kind: 'TypeMismatch' });
      return v.pure;
    };
    for (const [i, command] of pt.commands.entries()) {
      switch (command.$kind) {
        case 'SplitCoins': {
          const coin = coinAt(command.SplitCoins.coin as Argument, i, 0);
          const amounts = (command.SplitCoins.amounts as Argument[]).map((a, j) => {
            try {
              return BigInt(bcs.u64().parse(pureAt(a, i, j + 1)));
            } catch (err) {
              if (err instanceof Failure) throw err;
              return fail('CommandArgumentError', i, { argIdx: j + 1, kind: 'InvalidBCSBytes' });
            }
          });
          const total = amounts.reduce((s, a) => s + a, 0n);
          if (total > coin.balance) fail('InsufficientCoinBalance', i);
          coin.balance -= total;
          results[i] = amounts.map((amount) => {
            const id = chain.newObjectId(txDigest);
            created.add(id);
            work.set(id, {
              id,
              version: lamport,
              digest: '',
              owner: sender,
              coinType: coin.coinType,
              balance: amount,
              previousTransaction: txDigest,
            });
            return { coin: id };
          });
          break;
        }
        case 'MergeCoins': {
          const destination = coinAt(command.MergeCoins.destination as Argument, i, 0);
          (command.MergeCoins.sources as Argument[]).forEach((a, j) => {
            if (a.$kind === 'GasCoin') fail('CommandArgumentError', i, { argIdx: j + 1, kind: 'InvalidGasCoinUsage' });
            const source = coinAt(a, i, j + 1);
            if (source.id === destination.id)
              fail('CommandArgumentError', i, { argIdx: j + 1, kind: 'InvalidValueUsage' });
            if (source.coinType !== destination.coinType) {
              fail('CommandArgumentError', i, { argIdx: j + 1, kind: 'TypeMismatch' });
            }
            destination.balance += source.balance;
            moved.add(source.id);
            work.set(source.id, null);
          });
          results[i] = [];
          break;
        }
        case 'TransferObjects': {
          const objects = command.TransferObjects.objects as Argument[];
          const to = pureAt(command.TransferObjects.address as Argument, i, objects.length);
          if (to.length !== 32) fail('CommandArgumentError', i, { argIdx: objects.length, kind: 'InvalidBCSBytes' });
          const recipient = suiAddress(`0x${Buffer.from(to).toString('hex')}`);
          objects.forEach((a, j) => {
            const coin = coinAt(a, i, j);
            coin.owner = recipient;
            moved.add(coin.id);
          });
          results[i] = [];
          break;
        }
        case 'MakeMoveVec':
        case 'MoveCall':
        case 'Publish':
        case 'Upgrade':
          // refused before execution (see the command check above)
          return fail('FeatureNotYetSupported', i);
      }
    }
    // A coin made by SplitCoins has no `drop`: it must end up transferred or merged.
    results.forEach((values, resultIdx) =>
      values.forEach((v, secondaryIdx) => {
        if ('coin' in v && created.has(v.coin) && !moved.has(v.coin) && work.get(v.coin)) {
          fail('UnusedValueWithoutDrop', null, { resultIdx, secondaryIdx });
        }
      }),
    );
    return { work, created };
  };

  const computationCost = MIN_COMPUTATION_UNITS * price;
  let status: { ok: true } | { ok: false; failure: ExecutionFailure };
  let outcome: { work: Map<string, CoinObject | null>; created: Set<string> };
  try {
    outcome = attempt();
    status = { ok: true };
  } catch (err) {
    if (!(err instanceof Failure)) throw err;
    status = { ok: false, failure: err.failure };
    outcome = failedOutcome(inputObjects, gasId, gasCoins);
  }
  let gas = gasCharge(outcome, inputObjects.length, computationCost);
  if (status.ok && gas.computationCost + gas.storageCost > budget) {
    status = { ok: false, failure: { kind: 'InsufficientGas', command: null } };
    outcome = failedOutcome(inputObjects, gasId, gasCoins);
    gas = gasCharge(outcome, inputObjects.length, computationCost);
  }
  // What the gas coin pays: at most the budget (a failed transaction still pays its computation).
  let net = gas.computationCost + gas.storageCost - gas.storageRebate;
  if (net > budget) net = budget;
  const gasCoin = outcome.work.get(gasId) as CoinObject;
  gasCoin.balance -= net;

  // Write: every surviving touched object gets the lamport version and a new digest.
  const changes: ObjectChange[] = [];
  for (const [id, after] of outcome.work) {
    const input = before.get(id) ?? null;
    if (after) {
      after.version = lamport;
      after.digest = digestOf('object', id, lamport.toString());
      after.previousTransaction = txDigest;
      if (!dryRun) chain.objects.set(id, after);
    } else if (!dryRun) {
      chain.objects.delete(id);
      chain.deleted.set(id, lamport);
    }
    if (input || after) changes.push({ address: id, input, output: after });
  }
  changes.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));

  const effectsBytes = bcs.TransactionEffects.serialize({
    V2: {
      status: status.ok
        ? { Success: true }
        : {
            Failed: {
              error: { [status.failure.kind]: status.failure.fields ?? true } as never,
              command: status.failure.command === null ? null : String(status.failure.command),
            },
          },
      executedEpoch: '0',
      gasUsed: {
        computationCost: String(gas.computationCost),
        storageCost: String(gas.storageCost),
        storageRebate: String(gas.storageRebate),
        nonRefundableStorageFee: String(gas.nonRefundableStorageFee),
      },
      transactionDigest: txDigest,
      gasObjectIndex: changes.findIndex((c) => c.address === gasId),
      eventsDigest: null,
      dependencies: [...new Set(inputObjects.map((o) => o.previousTransaction))].sort(),
      lamportVersion: String(lamport),
      changedObjects: changes.map((c) => [
        c.address,
        {
          inputState: c.input
            ? { Exist: [[String(c.input.version), c.input.digest], { AddressOwner: c.input.owner }] }
            : { NotExist: true },
          outputState: c.output
            ? { ObjectWrite: [c.output.digest, { AddressOwner: c.output.owner }] }
            : { NotExist: true },
          idOperation: !c.input ? { Created: true } : !c.output ? { Deleted: true } : { None: true },
        },
      ]),
      unchangedSharedObjects: [],
      auxDataDigest: null,
    },
  }).toBytes();

  const tx: TransactionInput = {
    digest: txDigest,
    sender,
    status: status.ok ? 'SUCCESS' : 'FAILURE',
    balanceChanges: balanceChanges(changes),
    executed: {
      transactionBcs: toBase64(transactionBcs),
      signatures,
      effectsBcs: toBase64(effectsBytes),
      effectsDigest: toBase58(createHash('sha256').update(effectsBytes).digest()),
      objectChanges: changes,
      lamportVersion: lamport,
    },
  };
  if (dryRun) {
    return {
      digest: txDigest,
      effectsDigest: tx.executed!.effectsDigest,
      txSequenceNumber: -1,
      checkpoint: -1,
      sender,
      status: tx.status!,
      balanceChanges: tx.balanceChanges,
      executed: tx.executed!,
    };
  }
  chain.addCheckpoint([tx]);
  return chain.transaction(txDigest) as StoredTransaction;
}

/** The node's signature checks: one signature per required signer, each valid for these bytes. */
async function checkSignatures(bytes: Uint8Array, signatures: string[], signers: string[]): Promise<void> {
  if (signatures.length !== signers.length) {
    throw new SuiTransactionRejected(`Expect ${signers.length} signer signatures but got ${signatures.length}`);
  }
  const present: string[] = [];
  // what every ed25519 signature of these bytes signs, hashed once for all of them
  let digest: Uint8Array | undefined;
  for (const signature of signatures) {
    let fast: string | null = null;
    try {
      digest ??= suiTransactionSigningDigest(bytes);
      fast = nativeEd25519Signer(digest, signature);
    } catch {
      fast = null;
    }
    if (fast !== null) {
      present.push(fast);
      continue;
    }
    try {
      const key = await verifyTransactionSignature(bytes, signature);
      present.push(key.toSuiAddress());
    } catch (err) {
      throw new SuiTransactionRejected(`Invalid user signature: ${(err as Error).message}`);
    }
  }
  for (const signer of signers) {
    if (!present.includes(signer)) {
      throw new SuiTransactionRejected(
        `Invalid user signature: Required Signature from ${signer} is absent ${JSON.stringify(present)}`,
      );
    }
  }
}

/** Public keys the devnet has checked signatures of (the sponsor's signs every sponsored transaction). */
const checkedKeys = new Map<string, { key: KeyObject; address: string }>();
const CHECKED_KEYS_SIZE = 1_000;

/**
 * The signer of an ed25519 signature over the transaction's signing digest when node:crypto
 * (OpenSSL, strict RFC 8032, instead of pure-JS ed25519: about 4 ms a signature on the bench
 * machine, two per sponsored transaction) accepts it; null: ask the SDK
 * (verifyTransactionSignature). Whatever OpenSSL accepts, the node's ZIP-215 check accepts too,
 * and what it refuses goes to the SDK's check, so the devnet accepts and refuses exactly what it
 * did, with the same messages. The signature is parsed once and each public key imported once.
 */
function nativeEd25519Signer(digest: Uint8Array, signature: string): string | null {
  const parsed = parseSerializedSignature(signature);
  if (parsed.signatureScheme !== 'ED25519' || !parsed.publicKey) return null;
  if (parsed.publicKey.length !== 32 || parsed.signature.length !== 64) return null;
  const x = Buffer.from(parsed.publicKey).toString('base64url');
  let checked = checkedKeys.get(x);
  if (!checked) {
    checked = {
      key: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' }),
      address: new Ed25519PublicKey(parsed.publicKey).toSuiAddress(),
    };
    if (checkedKeys.size >= CHECKED_KEYS_SIZE) checkedKeys.clear();
    checkedKeys.set(x, checked);
  }
  return verifyEd25519(null, digest, checked.key, parsed.signature) ? checked.address : null;
}

/** A failed execution: the commands' changes are dropped, the gas coins are still smashed. */
function failedOutcome(
  inputObjects: CoinObject[],
  gasId: string,
  gasCoins: CoinObject[],
): { work: Map<string, CoinObject | null>; created: Set<string> } {
  const work = new Map<string, CoinObject | null>(inputObjects.map((o) => [o.id, { ...o }]));
  const gas = work.get(gasId) as CoinObject;
  for (const c of gasCoins.slice(1)) {
    gas.balance += c.balance;
    work.set(c.id, null);
  }
  return { work, created: new Set() };
}

function gasCharge(
  outcome: { work: Map<string, CoinObject | null> },
  inputCount: number,
  computationCost: bigint,
): { computationCost: bigint; storageCost: bigint; storageRebate: bigint; nonRefundableStorageFee: bigint } {
  const written = BigInt([...outcome.work.values()].filter((o) => o !== null).length);
  const inputsCount = BigInt(inputCount);
  return {
    computationCost,
    storageCost: written * STORAGE_COST_PER_OBJECT,
    storageRebate: inputsCount * STORAGE_REBATE_PER_OBJECT,
    nonRefundableStorageFee: inputsCount * NON_REFUNDABLE_PER_OBJECT,
  };
}

/** Net change per (owner, coin type), zeros dropped, ordered by owner then coin type. */
function balanceChanges(changes: ObjectChange[]): TransactionInput['balanceChanges'] {
  const net = new Map<string, bigint>();
  const add = (o: CoinObject, sign: bigint) => {
    const key = `${o.owner} ${canonicalCoinType(o.coinType)}`;
    net.set(key, (net.get(key) ?? 0n) + sign * o.balance);
  };
  for (const c of changes) {
    if (c.input) add(c.input, -1n);
    if (c.output) add(c.output, 1n);
  }
  return netBalanceChanges(net);
}
