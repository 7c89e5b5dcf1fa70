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
    });
    return key;
  }
}
