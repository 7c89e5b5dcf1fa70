// The BCS TransactionData of a sponsored transfer (sui-sponsored.ts › sign), written directly: the
// very bytes @mysten/sui's `Transaction` builder makes for the same calls (setSender, setGasOwner,
// setGasPrice, setGasBudget, setGasPayment, setExpiration, objectRef per input coin, mergeCoins,
// splitCoins when the amount is exact, transferObjects), without its command schemas, argument
// resolution and generic BCS writer (sui-transfer-bytes.spec.ts compares both over random plans).
//
// Layout (Sui's TransactionData, V1): kind = ProgrammableTransaction { inputs, commands }, sender,
// gas data { payment, owner, price, budget }, expiration. Inputs in the builder's order: the coins,
// then (an exact amount) the amount as a Pure u64, then the recipient as a Pure address.
import { fromBase58, normalizeSuiAddress } from '@mysten/sui/utils';

export interface SuiRefInput {
  objectId: string;
  version: string;
  digest: string;
}

export interface SuiTransferBytesPlan {
  sender: string;
  gasOwner: string;
  to: string;
  /** the coins to spend, in order: the first is the one the others merge into */
  inputs: readonly SuiRefInput[];
  /** `all`: the merged coin itself moves; an amount: split off the merged coin and moved */
  amount: bigint | 'all';
  gasCoin: SuiRefInput;
  gasPrice: bigint;
  gasBudget: bigint;
  expirationEpoch?: bigint;
}

const U64_MAX = (1n << 64n) - 1n;
const HEX_ADDRESS = /^0x[0-9a-f]{64}$/;

class Writer {
  private buf = new Uint8Array(512);
  private at = 0;

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n));
    next.set(this.buf);
    this.buf = next;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.at++] = v;
  }

  u16(v: number): void {
    if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new Error(`${v} is not a u16`);
    this.room(2);
    this.buf[this.at++] = v & 0xff;
    this.buf[this.at++] = v >>> 8;
  }

  uleb(v: number): void {
    for (;;) {
      const b = v & 0x7f;
      v = Math.floor(v / 128);
      if (v === 0) return this.u8(b);
      this.u8(b | 0x80);
    }
  }

  u64(value: bigint | string | number, what: string): void {
    const v = BigInt(value);
    if (v < 0n || v > U64_MAX) throw new Error(`${what} ${value} is not a u64`);
    this.room(8);
    let lo = Number(v & 0xffffffffn);
    let hi = Number(v >> 32n);
    for (let i = 0; i < 4; i++, lo >>>= 8) this.buf[this.at++] = lo & 0xff;
    for (let i = 0; i < 4; i++, hi >>>= 8) this.buf[this.at++] = hi & 0xff;
  }

  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }

  address(value: string): void {
    const a = normalizeSuiAddress(value);
    if (!HEX_ADDRESS.test(a)) throw new Error(`Invalid Sui address ${value}`);
    this.raw(Buffer.from(a.slice(2), 'hex'));
  }

  /** SuiObjectRef: id, version, digest (a 32-byte Base58 string, as a byte vector) */
  objectRef(o: SuiRefInput): void {
    this.address(o.objectId);
    this.u64(o.version, 'object version');
    const digest = fromBase58(o.digest);
    if (digest.length !== 32) throw new Error('ObjectDigest must be 32 bytes');
    this.uleb(32);
    this.raw(digest);
  }

  /** Argument::Input(i) */
  input(i: number): void {
    this.u8(1);
    this.u16(i);
  }

  bytes(): Uint8Array {
    return this.buf.slice(0, this.at);
  }
}

/** The BCS TransactionData of the transfer: what `Transaction.build()` gives for the same plan. */
export function suiTransferBytes(plan: SuiTransferBytesPlan): Uint8Array {
  const n = plan.inputs.length;
  if (n === 0) throw new Error('a transfer spends at least one coin');
  // the builder names a coin once however often it is given: a plan never lists one twice
  if (new Set(plan.inputs.map((c) => normalizeSuiAddress(c.objectId))).size !== n)
    throw new Error('a coin listed twice');
  const w = new Writer();
  w.u8(0); // TransactionData::V1
  w.u8(0); // TransactionKind::ProgrammableTransaction
  // inputs: the coins (CallArg::Object(ImmOrOwnedObject)), then the Pure values
  const exact = plan.amount !== 'all';
  w.uleb(n + (exact ? 2 : 1));
  for (const c of plan.inputs) {
    w.u8(1); // CallArg::Object
    w.u8(0); // ObjectArg::ImmOrOwnedObject
    w.objectRef(c);
  }
  if (exact) {
    w.u8(0); // CallArg::Pure
    w.uleb(8);
    w.u64(plan.amount as bigint, 'amount');
  }
  w.u8(0); // CallArg::Pure
  w.uleb(32);
  w.address(plan.to);
  const amountInput = n;
  const toInput = exact ? n + 1 : n;
  // commands
  w.uleb((n > 1 ? 1 : 0) + (exact ? 2 : 1));
  if (n > 1) {
    w.u8(3); // Command::MergeCoins { destination, sources }
    w.input(0);
    w.uleb(n - 1);
    for (let i = 1; i < n; i++) w.input(i);
  }
  if (exact) {
    const split = n > 1 ? 1 : 0; // the SplitCoins command's index
    w.u8(2); // Command::SplitCoins { coin, amounts }
    w.input(0);
    w.uleb(1);
    w.input(amountInput);
    w.u8(1); // Command::TransferObjects { objects: [NestedResult(split, 0)], address }
    w.uleb(1);
    w.u8(3); // Argument::NestedResult
    w.u16(split);
    w.u16(0);
    w.input(toInput);
  } else {
    w.u8(1); // Command::TransferObjects { objects: [Input(0)], address }
    w.uleb(1);
    w.input(0);
    w.input(toInput);
  }
  w.address(plan.sender);
  // GasData { payment, owner, price, budget }
  w.uleb(1);
  w.objectRef(plan.gasCoin);
  w.address(plan.gasOwner);
  w.u64(plan.gasPrice, 'gas price');
  w.u64(plan.gasBudget, 'gas budget');
  if (plan.expirationEpoch === undefined) {
    w.u8(0); // TransactionExpiration::None
  } else {
    w.u8(1); // TransactionExpiration::Epoch
    w.u64(plan.expirationEpoch, 'expiration epoch');
  }
  return w.bytes();
}
