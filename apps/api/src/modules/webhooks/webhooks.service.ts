import { Inject, Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import {
  WEBHOOK_DELIVERY_STATUSES,
  WebhookDeliveryEntity,
  WebhookDeliveryStatus,
  WebhookEndpointEntity,
} from '@svc/db';
import { isUuid } from '@svc/domain';
import {
  checkPublicDestination,
  isEventType,
  parseEventFilters,
  parseWebhookUrl,
  privateAllowList,
} from '@svc/webhooks';
import { badRequest, notFound, ClockService, SVC_CONFIG, SvcConfig } from '@svc/core';
import { appendEvents } from '@svc/payments';
import { LoggedRequest } from '@svc/runtime';
import { dataKeyOf, sealSecret } from '@svc/config';
import { encodeCursor, parseLimit, parseWalkCursor } from '../payments/payments-walk';
import { CreateWebhookDto } from './dto/create-webhook.dto';
import { UpdateWebhookDto } from './dto/update-webhook.dto';
import { testEnvelope } from './test-event';
import { WebhookQueueService } from './webhook-queue.service';
import * as msg from './webhooks.errors';
import { EndpointChanges, endpointUpdatedEvent } from './webhook-endpoint-events';
import { deliveryObject, endpointObject } from './webhooks.presenter';
import { WebhooksRepository } from './webhooks.repository';

export interface DeliveryListQuery {
  limit?: string;
  cursor?: string;
  status?: string;
  eventId?: string;
}

/** `whsec_` + 32 random bytes in hex; used as a UTF-8 string (not hex-decoded) as the HMAC key. */
export const generateWebhookSecret = () => `whsec_${randomBytes(32).toString('hex')}`;

/** issue 21 › 5: after a rotation the previous secret still signs (a second `v1=`) this long. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** An endpoint and its secret in clear: only the answers of create and rotate-secret carry it. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpointEntity;
  secret: string;
}

const DEFAULT_TEST_TYPE = 'checkout.session.completed';

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

@Injectable()
export class WebhooksService {
  constructor(
    private readonly db: DataSource,
    private readonly repo: WebhooksRepository,
    private readonly queue: WebhookQueueService,
    private readonly clock: ClockService,
    @Inject(SVC_CONFIG) private readonly config: SvcConfig,
  ) {}

  async create(workspaceId: string, dto: CreateWebhookDto): Promise<EndpointWithSecret> {
    const url = await this.checkUrl(dto.url);
    const now = this.clock.now();
    const id = randomUUID();
    const secret = generateWebhookSecret();
    const endpoint: WebhookEndpointEntity = {
      id,
      workspaceId,
      url,
      description: dto.description ?? null,
      eventTypes: this.filters(dto.eventTypes),
      secretSealed: this.seal(id, secret),
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      enabled: true,
      createdAt: now,
      updatedAt: now,
    };
    await this.repo.insertEndpoint(endpoint);
    return { endpoint, secret };
  }

  list(workspaceId: string): Promise<WebhookEndpointEntity[]> {
    return this.repo.listEndpoints(workspaceId);
  }

  async get(workspaceId: string, id: string): Promise<WebhookEndpointEntity> {
    const endpoint = await this.repo.findEndpoint(workspaceId, id);
    if (!endpoint) throw notFound(msg.endpointNotFound(id));
    return endpoint;
  }

  /**
   * Checks first (the URL's DNS in production), then changes the locked row: a concurrent change is
   * never lost. A change of where or what is delivered (url, eventTypes) is reported to the
   * workspace's other endpoints in the same transaction (webhook_endpoint.updated); description
   * and enabled, which any role may change, are not.
   */
  async update(workspaceId: string, id: string, dto: UpdateWebhookDto): Promise<WebhookEndpointEntity> {
    await this.get(workspaceId, id); // 404 before any 400 about the fields
    const url = dto.url !== undefined ? await this.checkUrl(dto.url) : undefined;
    const eventTypes = dto.eventTypes !== undefined ? this.filters(dto.eventTypes) : undefined;
    return this.changeLocked(workspaceId, id, (endpoint) => {
      const changes: EndpointChanges = {};
      if (url !== undefined && url !== endpoint.url) changes.url = { previous: endpoint.url, current: url };
      if (eventTypes !== undefined && !sameList(eventTypes, endpoint.eventTypes))
        changes.eventTypes = { previous: endpoint.eventTypes, current: eventTypes };
      if (url !== undefined) endpoint.url = url;
      if (eventTypes !== undefined) endpoint.eventTypes = eventTypes;
      if (dto.description !== undefined) endpoint.description = dto.description;
      if (dto.enabled !== undefined) endpoint.enabled = dto.enabled;
      return changes;
    });
  }

  /** The endpoint, its deliveries and attempts go; the other endpoints hear of it in the same transaction. */
  async delete(workspaceId: string, id: string) {
    await this.db.transaction(async (tx) => {
      const endpoint = await this.repo.lockEndpoint(tx, workspaceId, id);
      if (!endpoint) throw notFound(msg.endpointNotFound(id));
      await this.repo.deleteEndpoint(tx, workspaceId, id);
      await this.announce(tx, endpoint, { deleted: true });
    });
    return { id, object: 'webhook_endpoint' as const, deleted: true as const };
  }

  /**
   * `x-svc-signature` uses the new secret at once; `svc-signature` carries both for 24 hours
   * (`v1=<new>,v1=<old>`), so receivers can switch without losing events (issue 21 › 5). The old
   * secret is kept sealed, with its expiry; a second rotation within the day drops the oldest.
   */
  async rotateSecret(workspaceId: string, id: string): Promise<EndpointWithSecret> {
    const secret = generateWebhookSecret();
    const endpoint = await this.changeLocked(workspaceId, id, (e) => {
      const previousSecretExpiresAt = new Date(this.clock.now().getTime() + ROTATION_OVERLAP_MS);
      e.previousSecretSealed = e.secretSealed;
      e.previousSecretExpiresAt = previousSecretExpiresAt;
      e.secretSealed = this.seal(e.id, secret);
      return { secret: { rotated: true, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() } };
    });
    return { endpoint, secret };
  }

  private seal(endpointId: string, secret: string): string {
    return sealSecret(dataKeyOf(this.config), secret, `webhook_endpoint:${endpointId}`);
  }

  /**
   * Read, change and write the endpoint under its row lock, and announce what changed, in one
   * transaction: the change and its webhook_endpoint.updated commit together or not at all.
   */
  private changeLocked(
    workspaceId: string,
    id: string,
    change: (endpoint: WebhookEndpointEntity) => EndpointChanges,
  ): Promise<WebhookEndpointEntity> {
    return this.db.transaction(async (tx) => {
      const endpoint = await this.repo.lockEndpoint(tx, workspaceId, id);
      if (!endpoint) throw notFound(msg.endpointNotFound(id));
      const changes = change(endpoint);
      endpoint.updatedAt = this.clock.now();
      await this.repo.updateEndpoint(tx, endpoint);
      if (Object.keys(changes).length) await this.announce(tx, endpoint, changes);
      return endpoint;
    });
  }

  /**
   * money contract › Payouts (event types): `webhook_endpoint.updated` goes to every other endpoint
   * of the workspace whatever its filters (the relay's dispatch), so an owner hears of a redirect.
   */
  private announce(tx: EntityManager, endpoint: WebhookEndpointEntity, changes: EndpointChanges): Promise<void> {
    return appendEvents(
      tx,
      endpoint.workspaceId,
      [endpointUpdatedEvent(endpointObject(endpoint), changes, endpoint.workspaceId)],
      this.clock.now(),
    );
  }

  /**
   * spec: Endpoints › Webhooks › test. Sent whatever the endpoint's filters say (and even when it
   * is disabled): the merchant asked for it. Attempted once, no automatic retry.
   */
  /** `req`: the request asking (on the enqueue warning, if any). */
  async sendTest(workspaceId: string, id: string, eventType: string | undefined, req?: LoggedRequest) {
    const endpoint = await this.get(workspaceId, id);
    const type = eventType ?? DEFAULT_TEST_TYPE;
    if (!isEventType(type)) throw badRequest(msg.TEST_EVENT_TYPE);
    const now = this.clock.now();
    const envelope = testEnvelope(workspaceId, type, now);
    const delivery: WebhookDeliveryEntity = {
      id: randomUUID(),
      workspaceId,
      endpointId: endpoint.id,
      eventId: envelope.id,
      eventType: type,
      test: true,
      payload: envelope,
      status: 'pending',
      attemptCount: 0,
      runAttempts: 0,
      nextAttemptAt: now,
      lastAttemptAt: null,
      lastResponseStatus: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.repo.insertDelivery(delivery);
    await this.queue.wake(delivery.id, req);
    return deliveryObject(delivery, []);
  }

  async deliveries(workspaceId: string, id: string, q: DeliveryListQuery) {
    const endpoint = await this.get(workspaceId, id);
    const limit = parseLimit(q.limit);
    const walked = parseWalkCursor(q.cursor);
    const cursor = walked && { at: walked.updatedAt, id: walked.id };
    if (q.eventId !== undefined && !isUuid(q.eventId)) return { data: [], hasMore: false, nextCursor: null };
    if (q.status !== undefined && !WEBHOOK_DELIVERY_STATUSES.includes(q.status as WebhookDeliveryStatus))
      throw badRequest(msg.STATUS_FILTER);
    const rows = await this.repo.listDeliveries(endpoint.id, {
      limit: limit + 1,
      cursor,
      status: q.status as WebhookDeliveryStatus | undefined,
      eventId: q.eventId,
    });
    const page = rows.slice(0, limit);
    const attempts = await this.repo.attemptsOf(page.map((d) => d.id));
    const last = page[page.length - 1];
    const hasMore = rows.length > limit;
    return {
      data: page.map((d) => deliveryObject(d, attempts.get(d.id) ?? [])),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ updatedAt: last.createdAt, id: last.id }) : null,
    };
  }

  async delivery(workspaceId: string, id: string, deliveryId: string) {
    const d = await this.findDelivery(workspaceId, id, deliveryId);
    return deliveryObject(d, (await this.repo.attemptsOf([d.id])).get(d.id) ?? []);
  }

  /**
   * Sends the delivery again at once with the same envelope (same id, same body, signed with the
   * current secret), whatever its status; should that attempt fail, the retry schedule runs again.
   */
  async redeliver(workspaceId: string, id: string, deliveryId: string, req?: LoggedRequest) {
    const d = await this.findDelivery(workspaceId, id, deliveryId);
    await this.db.transaction(async (tx) => {
      const endpoint = await this.repo.lockEndpoint(tx, workspaceId, id);
      if (!endpoint) throw notFound(msg.endpointNotFound(id));
      await this.repo.reopenDelivery(tx, d.id, this.clock.now());
      await this.announce(tx, endpoint, {
        redelivered: { deliveryId: d.id, eventId: d.eventId, eventType: d.eventType },
      });
    });
    await this.queue.wake(d.id, req);
    return this.delivery(workspaceId, id, deliveryId);
  }

  private async findDelivery(workspaceId: string, id: string, deliveryId: string): Promise<WebhookDeliveryEntity> {
    const endpoint = await this.get(workspaceId, id);
    const d = await this.repo.findDelivery(endpoint.id, deliveryId);
    if (!d) throw notFound(msg.deliveryNotFound(deliveryId));
    return d;
  }

  private filters(eventTypes: string[]): string[] {
    const parsed = parseEventFilters(eventTypes);
    if (!parsed.ok) throw badRequest(parsed.message);
    return parsed.filters;
  }

  /** http(s); in production the host must resolve to public addresses only, or allowed private ones (SSRF). */
  private async checkUrl(raw: string): Promise<string> {
    const parsed = parseWebhookUrl(raw);
    if (!parsed.ok) throw badRequest(parsed.message);
    if (this.config.env === 'production') {
      const refused = await checkPublicDestination(parsed.url, privateAllowList(this.config.webhookAllowPrivate));
      if (refused) throw badRequest(refused);
    }
    return raw;
  }
}
