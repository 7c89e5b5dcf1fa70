import { hash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const API_KEY_PREFIX = 'svc_sk_';
/** runtime contract: `svc_sk_` followed by at least 32 base62 characters. */
export const API_KEY_RE = /^svc_sk_[0-9A-Za-z]{32,}$/;

/** 40 base62 characters (about 238 bits), drawn without modulo bias. */
export function generateApiKey(): string {
  let out = '';
  while (out.length < 40) {
    for (const byte of randomBytes(48)) {
      if (byte < 248 && out.length < 40) out += BASE62[byte % 62];
    }
  }
  return API_KEY_PREFIX + out;
}

/**
 * SHA-256 of the key as UTF-8, in hex (what the database stores). Node's one-shot `crypto.hash`
 * (Node >= 20.12): the same digest as createHash().update().digest() without the Hash object,
 * once per authenticated request (issue 23 › API).
 */
export const hashApiKey = (key: string): string => hash('sha256', key, 'hex');
