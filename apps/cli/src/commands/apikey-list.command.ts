import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '@svc/domain';
import { ApiKeySummary, WorkspacesService } from '@svc/workspaces';
import { parseOptions, requireOption, UsageError } from '../cli-args';
import { connect } from './database';

export interface ApiKeyListArgs {
  merchantId: string;
  json: boolean;
}

export function parseApiKeyListArgs(args: string[]): ApiKeyListArgs {
  const values = parseOptions('apikey:list', args, { merchant: { type: 'string' }, json: { type: 'boolean' } });
  const merchantId = requireOption('apikey:list', 'merchant', values.merchant);
  if (!isUuid(merchantId))
    throw new UsageError(`apikey:list: --merchant must be a workspace UUID, got "${merchantId}".`);
  return { merchantId, json: values.json === true };
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export const apiKeyJson = (k: ApiKeySummary) => ({
  id: k.id,
  role: k.role,
  createdAt: iso(k.createdAt),
  lastUsedAt: iso(k.lastUsedAt),
  revokedAt: iso(k.revokedAt),
});

/** runtime contract › Operator CLI › `apikey:list`: id, role, created, last used, revoked; never the key. */
@Injectable()
export class ApiKeyListCommand {
  constructor(
    private readonly db: DataSource,
    private readonly workspaces: WorkspacesService,
  ) {}

  async run({ merchantId, json }: ApiKeyListArgs): Promise<void> {
    await connect(this.db);
    const keys = (await this.workspaces.listApiKeys(merchantId)).map(apiKeyJson);
    if (json) {
      process.stdout.write(`${JSON.stringify(keys)}\n`);
      return;
    }
    const lines = keys.map(
      (k) =>
        `${k.id}  ${k.role.padEnd(9)}  created ${k.createdAt}  last used ${k.lastUsedAt ?? 'never'}` +
        (k.revokedAt ? `  REVOKED ${k.revokedAt}` : ''),
    );
    process.stdout.write(`${keys.length} API key(s) of workspace ${merchantId}:\n${lines.join('\n')}\n`);
  }
}
