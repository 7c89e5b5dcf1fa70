import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WorkspacesService } from '@svc/workspaces';
import { parseOptions, requireOption, UsageError } from '../cli-args';
import { connect } from './database';

const NAME_MAX = 200; // workspaces.name is varchar(200)

export interface WorkspaceCreateArgs {
  name: string;
  json: boolean;
}

export function parseWorkspaceCreateArgs(args: string[]): WorkspaceCreateArgs {
  const values = parseOptions('workspace:create', args, { name: { type: 'string' }, json: { type: 'boolean' } });
  const name = requireOption('workspace:create', 'name', values.name);
  if (name.length > NAME_MAX) throw new UsageError(`workspace:create: --name must be at most ${NAME_MAX} characters.`);
  return { name, json: values.json === true };
}

/** runtime contract › Operator CLI › `workspace:create`: a workspace (merchant) and its owner key. */
@Injectable()
export class WorkspaceCreateCommand {
  constructor(
    private readonly db: DataSource,
    private readonly workspaces: WorkspacesService,
  ) {}

  async run({ name, json }: WorkspaceCreateArgs): Promise<void> {
    await connect(this.db);
    const { merchantId, apiKey } = await this.workspaces.createWorkspace(name);
    if (json) {
      // Exactly one JSON line on stdout: scripts parse it.
      process.stdout.write(`${JSON.stringify({ merchantId, apiKey })}\n`);
      return;
    }
    process.stdout.write(
      `Created workspace "${name}" (merchantId ${merchantId}).\n` +
        `Owner API key, shown once (only its hash is stored, so keep it now):\n\n  ${apiKey}\n\n`,
    );
  }
}
