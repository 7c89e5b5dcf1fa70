import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '@svc/domain';
import { WorkspacesService } from '@svc/workspaces';
import { parseOptions, requireOption, UsageError } from '../cli-args';
import { apiKeyJson } from './apikey-list.command';
import { connect } from './database';

export interface ApiKeyRevokeArgs {
  keyId: string;
  json: boolean;
}

export function parseApiKeyRevokeArgs(args: string[]): ApiKeyRevokeArgs {
  const values = parseOptions('apikey:revoke', args, { 'key-id': { type: 'string' }, json: { type: 'boolean' } });
  const keyId = requireOption('apikey:revoke', 'key-id', values['key-id']);
  if (!isUuid(keyId)) throw new UsageError(`apikey:revoke: --key-id must be a key UUID (apikey:list), got "${keyId}".`);
  return { keyId, json: values.json === true };
}

/**
 * runtime contract › Operator CLI › `apikey:revoke`: the key answers 401 at once, in every API
 * process (the revocation is notified to them in the same transaction). Revoking twice is fine.
 */
@Injectable()
export class ApiKeyRevokeCommand {
  constructor(
    private readonly db: DataSource,
    private readonly workspaces: WorkspacesService,
  ) {}

  async run({ keyId, json }: ApiKeyRevokeArgs): Promise<void> {
    await connect(this.db);
    const key = apiKeyJson(await this.workspaces.revokeApiKey(keyId));
    process.stdout.write(
      json ? `${JSON.stringify(key)}\n` : `Revoked the ${key.role} API key ${key.id} (at ${key.revokedAt}).\n`,
    );
  }
}
