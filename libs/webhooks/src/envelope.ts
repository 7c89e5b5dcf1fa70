/**
 * The exact body of a delivery: `{id, type, createdAt, data}` (spec: Events). `dataJson` is the
 * event's `data` as stored (the outbox keeps json text verbatim), so every attempt sends the same
 * bytes.
 */
export function envelopeBody(id: string, type: string, createdAt: Date | string, dataJson: string): string {
  return `${envelopeHead(id, type, createdAt)}${dataJson}}`;
}

/**
 * `envelopeBody`'s UTF-8 bytes, written straight into one Buffer: the event's data is encoded
 * once, with no body-sized string made on the way (the worker signs and sends these bytes).
 */
export function envelopeBytes(id: string, type: string, createdAt: Date | string, dataJson: string): Buffer {
  const head = envelopeHead(id, type, createdAt);
  const headLength = Buffer.byteLength(head, 'utf8');
  const dataLength = Buffer.byteLength(dataJson, 'utf8');
  const bytes = Buffer.allocUnsafe(headLength + dataLength + 1);
  bytes.write(head, 0, 'utf8');
  bytes.write(dataJson, headLength, 'utf8');
  bytes[headLength + dataLength] = 0x7d; // }
  return bytes;
}

function envelopeHead(id: string, type: string, createdAt: Date | string): string {
  const at = typeof createdAt === 'string' ? createdAt : createdAt.toISOString();
  return `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"createdAt":${JSON.stringify(at)},"data":`;
}
