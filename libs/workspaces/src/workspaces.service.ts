import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { ApiKeyRole } from '@svc/domain';
import { ApiKeyEntity, WorkspaceEntity } from '@svc/db';
import { notFound } from '@svc/core';
import { generateApiKey, hashApiKey } from './api-key';

export interface CreatedWorkspace {
  merchantId: string;
  apiKey: string;
}

/** A key as `apikey:list` shows it: never the key, nor its hash. */
export interface ApiKeySummary {
  id: string;
  role: ApiKeyRole;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * Committed revocations are announced on this channel (payload: the key's hash), so every API
 * process drops the key from its cache at once (money contract › Permissions: "a revoked key
 * answers 401 at once").
 */
export const API_KEY_REVOKED_CHANNEL = 'svc_api_key_revoked';

const KEY_COLUMNS = 'id, role, created_at, last_used_at, revoked_at';
interface KeyRow {
  id: string;
  role: ApiKeyRole;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}
const summary = (r: KeyRow): ApiKeySummary => ({
  id: r.id,
  role: r.role,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

@Injectable()
export class WorkspacesService {
  constructor(private readonly db: DataSource) {}

  /** A workspace and its first (owner) key, in one transaction. */
  async createWorkspace(name: string): Promise<CreatedWorkspace> {
    return this.db.transaction(async (tx) => {
      const id = randomUUID();
      await tx.insert(WorkspaceEntity, { id, name });
      const apiKey = await this.insertKey(tx, id, 'owner');
      return { merchantId: id, apiKey };
    });
  }

  async createApiKey(workspaceId: string, role: ApiKeyRole): Promise<string> {
    return this.db.transaction(async (tx) => {
      const exists = await tx.existsBy(WorkspaceEntity, { id: workspaceId });
      if (!exists) throw notFound(`No workspace ${workspaceId}.`);
      return this.insertKey(tx, workspaceId, role);
    });
  }

  /** runtime contract › `apikey:list`: the workspace's keys, oldest first. */
  async listApiKeys(workspaceId: string): Promise<ApiKeySummary[]> {
    const exists = await this.db.manager.existsBy(WorkspaceEntity, { id: workspaceId });
    if (!exists) throw notFound(`No workspace ${workspaceId}.`);
    const rows: KeyRow[] = await this.db.query(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspaceId],
    );
    return rows.map(summary);
  }

  /**
   * runtime contract › `apikey:revoke`: stamps `revoked_at` (once; revoking again changes
   * nothing) and, in the same transaction, notifies every API process to drop it from its cache.
   */
  async revokeApiKey(keyId: string): Promise<ApiKeySummary> {
    return this.db.transaction(async (tx) => {
      // an UPDATE through TypeORM answers [rows, affected]
      const [[key]]: [Array<KeyRow & { key_hash: string }>, number] = await tx.query(
        `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING key_hash, ${KEY_COLUMNS}`,
        [keyId],
      );
      if (!key) throw notFound(`No API key ${keyId}.`);
      await tx.query(`SELECT pg_notify($1, $2)`, [API_KEY_REVOKED_CHANNEL, key.key_hash]);
      return summary(key);
    });
  }

  async findByName(name: string): Promise<WorkspaceEntity | null> {
    return this.db.getRepository(WorkspaceEntity).findOne({ where: { name }, order: { createdAt: 'ASC' } });
  }

  private async insertKey(tx: EntityManager, workspaceId: string, role: ApiKeyRole): Promise<string> {
    const key = generateApiKey();
    await tx.insert(ApiKeyEntity, {
      id: randomUUID(),
      workspaceId,
      role,
      keyHash: hashApiKey(key),
      keyPrefix: key.slice(0, 12),
      revokedAt: null,
      lastUsedAt: null,
    });
    return key;
  }
}
