import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import {
  WebhookDeliveryAttemptEntity,
  WebhookDeliveryEntity,
  WebhookDeliveryStatus,
  WebhookEndpointEntity,
} from '@svc/db';
import { isUuid } from '@svc/domain';

export interface DeliveryListFilter {
  limit: number;
  cursor?: { at: Date; id: string };
  status?: WebhookDeliveryStatus;
  eventId?: string;
}

/** Queries of the webhook endpoints and their delivery log (house style 5). */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: DataSource) {}

  async insertEndpoint(e: WebhookEndpointEntity): Promise<void> {
    await this.db.manager.insert(WebhookEndpointEntity, e);
  }

  /** Tenant-sealed: another workspace's endpoint is not found, like a missing one. */
  async findEndpoint(workspaceId: string, id: string): Promise<WebhookEndpointEntity | null> {
    if (!isUuid(id)) return null;
    return this.db.manager.findOne(WebhookEndpointEntity, { where: { id, workspaceId } });
  }

  /**
   * The endpoint, row-locked in the caller's transaction: a PATCH or a rotation reads, changes
   * and writes it back while concurrent ones wait, so none is lost.
   */
  async lockEndpoint(tx: EntityManager, workspaceId: string, id: string): Promise<WebhookEndpointEntity | null> {
    if (!isUuid(id)) return null;
    return tx.findOne(WebhookEndpointEntity, { where: { id, workspaceId }, lock: { mode: 'pessimistic_write' } });
  }

  listEndpoints(workspaceId: string): Promise<WebhookEndpointEntity[]> {
    return this.db.manager.find(WebhookEndpointEntity, {
      where: { workspaceId },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  async updateEndpoint(tx: EntityManager, e: WebhookEndpointEntity): Promise<void> {
    await tx.update(
      WebhookEndpointEntity,
      { id: e.id, workspaceId: e.workspaceId },
      {
        url: e.url,
        description: e.description,
        eventTypes: e.eventTypes,
        enabled: e.enabled,
        secretSealed: e.secretSealed,
        previousSecretSealed: e.previousSecretSealed,
        previousSecretExpiresAt: e.previousSecretExpiresAt,
        updatedAt: e.updatedAt,
      },
    );
  }

  /** Deliveries and attempts go with the endpoint (ON DELETE CASCADE); queued jobs find nothing and end. */
  async deleteEndpoint(tx: EntityManager, workspaceId: string, id: string): Promise<void> {
    await tx.delete(WebhookEndpointEntity, { id, workspaceId });
  }

  async insertDelivery(d: WebhookDeliveryEntity): Promise<void> {
    // TypeORM's deep-partial type does not take a Record for a json column; the value is stored as JSON.
    await this.db.manager.insert(WebhookDeliveryEntity, d as QueryDeepPartialEntity<WebhookDeliveryEntity>);
  }

  async findDelivery(endpointId: string, id: string): Promise<WebhookDeliveryEntity | null> {
    if (!isUuid(id)) return null;
    return this.db.manager.findOne(WebhookDeliveryEntity, { where: { id, endpointId } });
  }

  /** Newest first, keyset on (createdAt, id). */
  async listDeliveries(endpointId: string, f: DeliveryListFilter): Promise<WebhookDeliveryEntity[]> {
    const qb = this.db.manager
      .createQueryBuilder(WebhookDeliveryEntity, 'd')
      .where('d.endpoint_id = :endpointId', { endpointId });
    if (f.status) qb.andWhere('d.status = :status', { status: f.status });
    if (f.eventId) qb.andWhere('d.event_id = :eventId', { eventId: f.eventId });
    if (f.cursor) qb.andWhere('(d.created_at, d.id) < (:cAt, :cId)', { cAt: f.cursor.at, cId: f.cursor.id });
    return qb.orderBy('d.created_at', 'DESC').addOrderBy('d.id', 'DESC').limit(f.limit).getMany();
  }

  async attemptsOf(deliveryIds: string[]): Promise<Map<string, WebhookDeliveryAttemptEntity[]>> {
    const out = new Map<string, WebhookDeliveryAttemptEntity[]>(deliveryIds.map((id) => [id, []]));
    if (!deliveryIds.length) return out;
    const rows = await this.db.manager.find(WebhookDeliveryAttemptEntity, {
      where: { deliveryId: In(deliveryIds) },
      order: { attempt: 'ASC', attemptedAt: 'ASC' },
    });
    for (const a of rows) out.get(a.deliveryId)?.push(a);
    return out;
  }

  /** Redelivery: due now, and a fresh run of the retry schedule. */
  async reopenDelivery(tx: EntityManager, id: string, now: Date): Promise<void> {
    await tx.query(
      `UPDATE webhook_deliveries SET status = 'pending', run_attempts = 0, next_attempt_at = $2, updated_at = $2 WHERE id = $1`,
      [id, now],
    );
  }
}
