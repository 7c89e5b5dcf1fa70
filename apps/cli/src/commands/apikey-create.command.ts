import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { API_KEY_ROLES, ApiKeyRole, isUuid } from '@svc/domain';
import { WorkspacesService } from '@svc/workspaces';
import { parseOptions, requireOption, UsageError } from '../cli-args';
import { connect } from './database';

export interface ApiKeyCreateArgs {
  merchantId: string;
  role: ApiKeyRole;
  json: boolean;
}

const isRole = (value: string): value is ApiKeyRole => (API_KEY_ROLES as readonly string[]).includes(value);

export function parseApiKeyCreateArgs(args: string[]): ApiKeyCreateArgs {
  const values = parseOptions('apikey:create', args, {
    merchant: { type: 'string' },
    role: { type: 'string' },
    json: { type: 'boolean' },
  });
  const merchantId = requireOption('apikey:create', 'merchant', values.merchant);
  const role = requireOption('apikey:create', 'role', values.role);
  if (!isUuid(merchantId))
    throw new UsageError(`apikey:create: --merchant must be a workspace UUID, got "${merchantId}".`);
  if (!isRole(role))
    throw new UsageError(`apikey:create: --role must be one of ${API_KEY_ROLES.join(', ')}, got "${role}".`);
  return { merchantId, role, json: values.json === true };
}

/** runtime contract › Operator CLI › `apikey:create`: another key for an existing workspace. */
@Injectable()
export class ApiKeyCreateCommand {
  constructor(
    private readonly db: DataSource,
    private readonly workspaces: WorkspacesService,
  ) {}

  async run({ merchantId, role, json }: ApiKeyCreateArgs): Promise<void> {
    await connect(this.db);
    // An unknown workspace throws the service's 404; main reports it and exits 1.
    const apiKey = await this.workspaces.createApiKey(merchantId, role);
    if (json) {
      process.stdout.write(`${JSON.stringify({ apiKey, role })}\n`);
      return;
    }
    process.stdout.write(
      `Created a ${role} API key for workspace ${merchantId}.\n` +
        `Shown once (only its hash is stored, so keep it now):\n\n  ${apiKey}\n\n`,
    );
  }
}
