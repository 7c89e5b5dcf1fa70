// Secrets at rest (runtime contract › SVC_DATA_KEY; issue 21 › 7): the webhook endpoint secrets
// and the checkout secrets are stored sealed with AES-256-GCM under SVC_DATA_KEY, so the database
// alone cannot sign a webhook or a signed return. Each value is bound to its row (the additional
// authenticated data names the table and the row), so a sealed value copied into another row
// does not open there.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The row a sealed secret belongs to: `webhook_endpoint:<id>`, `checkout_settings:<workspace id>`. */
export type SecretContext = `webhook_endpoint:${string}` | `checkout_settings:${string}`;

export class SecretBoxError extends Error {}

/** `v1.<base64url of iv ‖ tag ‖ ciphertext>`; a fresh random IV every time. */
export function sealSecret(key: Buffer, plaintext: string, context: SecretContext): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The plaintext, or SecretBoxError for anything not sealed by this key for this row. */
export function openSecret(key: Buffer, sealed: string, context: SecretContext): string {
  const [version, payload, ...rest] = sealed.split('.');
  if (version !== VERSION || payload === undefined || rest.length)
    throw new SecretBoxError(`a stored secret of ${context} is not sealed (${VERSION}.…)`);
  const raw = Buffer.from(payload, 'base64url');
  if (raw.length <= IV_BYTES + TAG_BYTES) throw new SecretBoxError(`a stored secret of ${context} is truncated`);
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError(`a stored secret of ${context} does not open with SVC_DATA_KEY (another key, or altered)`);
  }
}

export const isSealed = (value: string): boolean => value.startsWith(`${VERSION}.`);
