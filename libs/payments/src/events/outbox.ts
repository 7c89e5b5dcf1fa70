import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';

export interface OutboxEvent {
  type: string;
  data: Record<string, unknown>;
}

/**
 * Appends events to the outbox inside the caller's transaction, so an event exists exactly when
 * the change it reports committed (architecture › Events and webhooks). Delivery reads from here.
 */
export async function appendEvents(
  tx: EntityManager,
  workspaceId: string,
  events: OutboxEvent[],
  at: Date,
): Promise<void> {
  if (!events.length) return;
  const values: unknown[] = [];
  const tuples = events.map((e, i) => {
    values.push(randomUUID(), workspaceId, e.type, JSON.stringify(e.data), at);
    const b = i * 5;
    return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5})`;
  });
  await tx.query(`INSERT INTO events (id, workspace_id, type, data, created_at) VALUES ${tuples.join(', ')}`, values);
}
