#!/usr/bin/env node
// Where an EVM deposit address's CPU goes (issue 23 › API): each step of xpubChildAddress alone
// (HMAC-SHA512, libsecp256k1's tweak-add with the key serialised, the two keccaks, the hex and
// checksum), the whole address, and the derivation worker's messages: a block of 256 indexes in
// messages of 32 or in one, as the main thread and the worker thread each pay (Linux
// /proc/<pid>/task/<tid>/stat, 10 ms ticks, so many blocks). Runs the built code: after
// `npx tsc -p tsconfig.build.json && npx tsc-alias -p tsconfig.build.json`,
// `node bench/support/derive-address.bench.js`. Prints µs of CPU per address, best of ROUNDS.
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const { createHmac, randomBytes } = require('node:crypto');
const { HDNodeWallet, keccak256 } = require('ethers');
const { keccak_256 } = require('@noble/hashes/sha3');

const DIST = path.resolve(__dirname, '../../dist/libs/chains/src');
const { xpubChildAddress, xpubChildAddresses } = require(path.join(DIST, 'derivation'));
const { XpubAddressWorker } = require(path.join(DIST, 'address-worker'));
const { nativeSecp256k1: native } = require(path.join(DIST, 'native-secp256k1'));
let keccak256Bytes = null;
try {
  ({ keccak256Bytes } = require(path.join(DIST, 'keccak')));
} catch {
  /* a tree without it */
}

const N = Number(process.env.BENCH_N ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 100);
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const account = HDNodeWallet.fromSeed(randomBytes(32)).derivePath("m/44'/60'/0'/0");
const xpub = account.neuter().extendedKey;
const compressed = Buffer.from(account.publicKey.slice(2), 'hex');
const chainCode = Buffer.from(account.chainCode.slice(2), 'hex');
const uncompressed = native ? native.publicKeyConvert(compressed, false) : null;

/** I_L of child i: BIP-32 CKDpub's HMAC-SHA512, as derivation.ts computes it */
const tweak = (i) => {
  const data = Buffer.alloc(37);
  compressed.copy(data);
  data.writeUInt32BE(i, 33);
  return createHmac('sha512', chainCode).update(data).digest().subarray(0, 32);
};
const tweaks = Array.from({ length: 256 }, (_, i) => tweak(i));
const keys = native ? tweaks.map((il) => native.publicKeyTweakAdd(uncompressed, il, false)) : [];
const digests = keys.map((k) => Buffer.from(keccak_256(k.subarray(1))));

/** the address from its key's digest as derivation.ts wrote it before this pass: ethers' keccak256 and strings */
function stringChecksum(digest) {
  const lower = digest.toString('hex').slice(-40);
  const hash = keccak256(Buffer.from(lower, 'latin1'));
  let out = '0x';
  for (let k = 0; k < 40; k++) {
    const c = lower.charCodeAt(k);
    out += c >= 97 && hash.charCodeAt(k + 2) >= 56 ? String.fromCharCode(c - 32) : lower[k];
  }
  return out;
}
const HEX = Buffer.from('0123456789abcdef', 'latin1');
/** the hex and checksum letters as derivation.ts writes them now, the keccak left out (`hash` given) */
function byteChecksum(digest, hash) {
  const out = Buffer.allocUnsafe(42);
  out[0] = 0x30;
  out[1] = 0x78;
  for (let k = 0; k < 20; k++) {
    out[2 + 2 * k] = HEX[digest[12 + k] >> 4];
    out[3 + 2 * k] = HEX[digest[12 + k] & 15];
  }
  for (let k = 0; k < 40; k++) {
    const nibble = k & 1 ? hash[k >> 1] & 15 : hash[k >> 1] >> 4;
    if (nibble >= 8 && out[2 + k] >= 0x61) out[2 + k] -= 0x20;
  }
  return out.toString('latin1');
}

const usEach = (fn) => {
  for (let i = 0; i < 500; i++) fn(i);
  const t0 = process.cpuUsage();
  for (let i = 0; i < N; i++) fn(i);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / N;
};

const hex40 = Buffer.from(randomBytes(20).toString('hex'), 'latin1');
const steps = {
  'HMAC-SHA512 (I_L)': (i) => tweak(i),
  ...(native && {
    'tweak-add, key serialised uncompressed (libsecp256k1)': (i) =>
      native.publicKeyTweakAdd(uncompressed, tweaks[i & 255], false),
    'tweak-add, key serialised compressed (libsecp256k1)': (i) =>
      native.publicKeyTweakAdd(uncompressed, tweaks[i & 255], true),
  }),
  'keccak of the key (64 bytes), ethers keccak256 (hex string)': (i) => keccak256(keys[i & 255].subarray(1)),
  'keccak of the key (64 bytes), @noble/hashes keccak_256': (i) => keccak_256(keys[i & 255].subarray(1)),
  ...(keccak256Bytes && {
    'keccak of the key (64 bytes), keccak.ts (js-sha3)': (i) => keccak256Bytes(keys[i & 255].subarray(1)),
    'keccak of the checksum (40 hex digits), keccak.ts (js-sha3)': () => keccak256Bytes(hex40),
  }),
  'keccak of the checksum (40 hex digits), @noble/hashes keccak_256': () => keccak_256(hex40),
  'hex and checksum with its keccak, as strings (ethers keccak256: before)': (i) => stringChecksum(digests[i & 255]),
  'hex and checksum letters as bytes, keccak left out (now)': (i) =>
    byteChecksum(digests[i & 255], digests[(i + 1) & 255]),
  'the whole address, one at a time (xpubChildAddress)': (i) => xpubChildAddress(xpub, i),
  'the whole address, in a batch of 256 (xpubChildAddresses)': (i) =>
    i % 256 === 0
      ? xpubChildAddresses(
          xpub,
          Array.from({ length: 256 }, (_, k) => i + k),
        )
      : null,
};

const TICK_MS = 10;
function threadMs() {
  const out = new Map();
  for (const tid of fs.readdirSync(`/proc/${process.pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(tid, (Number(f[11]) + Number(f[12])) * TICK_MS);
    } catch {
      /* ended */
    }
  }
  return out;
}

/** blocks of 256 indexes through one worker, `chunk` indexes a message; µs per address by thread */
async function messages(worker, workerTid, chunk, next) {
  const main = String(process.pid);
  const before = threadMs();
  for (let b = 0; b < BLOCKS; b++) {
    const ready = [];
    await Promise.all(
      Array.from({ length: 256 / chunk }, async () => {
        const indexes = Array.from({ length: chunk }, () => next.i++);
        const addresses = await worker.derive(xpub, indexes);
        indexes.forEach((index, k) => ready.push({ index: BigInt(index), address: addresses[k] }));
      }),
    );
  }
  const after = threadMs();
  const per = (tid) => ((after.get(tid) - before.get(tid)) * 1000) / (BLOCKS * 256);
  return { main: per(main), worker: per(workerTid) };
}

async function main() {
  console.log(`derive-address: µs of CPU per address, best of ${ROUNDS} × ${N}; load ${loadavg()}`);
  const best = {};
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, fn] of Object.entries(steps)) best[name] = Math.min(best[name] ?? Infinity, usEach(fn));
  for (const [name, us] of Object.entries(best)) console.log(`  ${us.toFixed(2).padStart(7)}  ${name}`);

  if (!fs.existsSync(`/proc/${process.pid}/task`)) return;
  const threadsBefore = threadMs();
  const worker = new XpubAddressWorker();
  await worker.derive(xpub, [0]);
  const workerTid = [...threadMs().keys()].find((t) => !threadsBefore.has(t));
  console.log(
    `\nthe worker's start and first address: ${threadMs().get(workerTid)} ms of its thread's CPU; then ${BLOCKS} blocks of 256, µs per address (main thread / worker thread):`,
  );
  const next = { i: 1000 };
  const rows = { 32: [], 256: [] };
  for (let r = 0; r < ROUNDS; r++)
    for (const chunk of [32, 256, 256, 32]) rows[chunk].push(await messages(worker, workerTid, chunk, next));
  for (const chunk of [32, 256])
    console.log(
      `  messages of ${String(chunk).padStart(3)}: ${rows[chunk].map((x) => `${x.main.toFixed(2)} / ${x.worker.toFixed(2)}`).join(', ')}`,
    );
  await worker.close();
  console.log(`\nload ${loadavg()}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
