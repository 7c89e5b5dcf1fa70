// libsecp256k1 through the `secp256k1` package's N-API binding (prebuilt for linux-x64, darwin-arm64
// and win32-x64, loaded at run time by node-gyp-build; no install script runs). Its own entry point,
// `require('secp256k1')`, silently falls back to the pure-JS `elliptic` when the binding cannot load;
// this module loads the binding alone, and its callers fall back to @noble/curves (the same results,
// byte for byte, at several times the CPU) when `nativeSecp256k1` is null.

/** The part of the binding's API that svc uses (secp256k1@5, lib/index.js); every key is a Uint8Array. */
export interface NativeSecp256k1 {
  /** `publicKey` + tweak·G; throws when the tweak is >= n or the result is the point at infinity. */
  publicKeyTweakAdd(publicKey: Uint8Array, tweak: Uint8Array, compressed?: boolean): Uint8Array;
  publicKeyCreate(privateKey: Uint8Array, compressed?: boolean): Uint8Array;
  publicKeyConvert(publicKey: Uint8Array, compressed?: boolean): Uint8Array;
  /** (privateKey + tweak) mod n; throws when the tweak is >= n or the result is zero. */
  privateKeyTweakAdd(privateKey: Uint8Array, tweak: Uint8Array): Uint8Array;
  /** RFC 6979 deterministic signature, low s, as a 64-byte r‖s with its recovery id. */
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  ecdsaRecover(signature: Uint8Array, recid: number, message: Uint8Array, compressed?: boolean): Uint8Array;
}

function load(): NativeSecp256k1 | null {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('secp256k1/bindings') as NativeSecp256k1;
  } catch {
    return null;
  }
}

/** libsecp256k1, or null where its binding does not load (callers then use @noble/curves). */
export const nativeSecp256k1: NativeSecp256k1 | null = load();

/** Which implementation this process uses, for start-up lines and benchmarks. */
export const secp256k1Implementation = (): 'libsecp256k1' | '@noble/curves' =>
  nativeSecp256k1 ? 'libsecp256k1' : '@noble/curves';
