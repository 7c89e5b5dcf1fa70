/**
 * The exact body of a delivery: `{id, type, createdAt, data}` (spec: Events). `dataJson` is the
 * event's `data` as stored (the outbox keeps json text verbatim), so every attempt sends the same
 * bytes.
 */
export function envelopeBody(id: string, type: string, createdAt: Date | string, dataJson: string): string {
  const at = typeof createdAt === 'string' ? createdAt : createdAt.toISOString();
  return `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"createdAt":${JSON.stringify(at)},"data":${dataJson}}`;
}
