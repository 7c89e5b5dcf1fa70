// EVM deposit addresses derived off the caller's thread (issue 23 › API): a `node:worker_threads`
// worker runs xpubChildAddresses (derivation.ts: the same addresses as xpubChildAddress, byte for
// byte) on indexes the caller already reserved, so one elliptic-curve multiplication per address
// leaves the API's event loop. libsecp256k1 does each child key where its binding loads; with
// @noble/curves instead, the worker keeps a wider precomputed table of G than the request path
// (wideWindowBase) and converts each batch to affine coordinates with one inversion. The worker
// only computes: which indexes to derive, and handing each out once, stay with the caller.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';

// Plain JavaScript, evaluated in the worker: it loads derivation.js (or derivation.ts through the
// repository's swc hook when the caller itself runs from TypeScript sources, as in the tests).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
if (workerData.register) require(workerData.register);
const { secp256k1Implementation, wideWindowBase, xpubChildAddresses } = require(workerData.derivation);
// with @noble/curves, G with a 12-bit window table (~0.3 s once, ~18 MB), built before the first
// batch is read; libsecp256k1 has its own tables
const base = secp256k1Implementation() === 'libsecp256k1' ? undefined : wideWindowBase();
parentPort.on('message', (m) => {
  try {
    parentPort.postMessage({ id: m.id, addresses: xpubChildAddresses(m.xpub, m.indexes, base) });
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String((err && err.message) || err) });
  }
});
`;

interface Pending {
  resolve(addresses: string[]): void;
  reject(err: Error): void;
}

/** One worker thread deriving EVM addresses (xpubChildAddress) from an xpub, in batches. */
export class XpubAddressWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private failure: Error | null = null;

  constructor() {
    const derivation = require.resolve('./derivation');
    const fromSources = derivation.endsWith('.ts');
    const register = resolve(__dirname, '../../../scripts/swc-register.js');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { derivation, register: fromSources && existsSync(register) ? register : null },
      // the caller's own flags (a profiler, a preload of the bench) are not the worker's business
      execArgv: [],
    });
    // never what keeps a process alive; the owner still terminates it on shutdown (close())
    this.worker.unref();
    this.worker.on('message', (m: { id: number; addresses?: string[]; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.addresses) p.resolve(m.addresses);
      else p.reject(new Error(m.error ?? 'derivation failed'));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the derivation worker exited (code ${code})`)));
  }

  /** False once the worker died (or was closed): derive inline then. */
  get alive(): boolean {
    return this.failure === null;
  }

  /** xpubChildAddress(xpub, i) for each index, computed in the worker; rejects if the worker dies. */
  derive(xpub: string, indexes: readonly number[]): Promise<string[]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<string[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, xpub, indexes });
    });
  }

  async close(): Promise<void> {
    this.fail(new Error('the derivation worker was closed'));
    await this.worker.terminate();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const p of this.pending.values()) p.reject(this.failure);
    this.pending.clear();
  }
}
