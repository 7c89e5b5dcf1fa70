import { DataSource } from 'typeorm';
import { destinationKeyOf, SvcConfig } from '@svc/config';
import { authoriseUnmacedDestinations } from '@svc/payments';
import { parseOptions } from '../cli-args';
import { connect } from './database';

export interface DestinationsAuthoriseArgs {
  dryRun: boolean;
  json: boolean;
}

export function parseDestinationsAuthoriseArgs(args: string[]): DestinationsAuthoriseArgs {
  const values = parseOptions('destinations:authorise', args, {
    'dry-run': { type: 'boolean' },
    json: { type: 'boolean' },
  });
  return { dryRun: values['dry-run'] === true, json: values.json === true };
}

/**
 * The upgrade step of destination MACs (docs/money-out.md › Destinations › Upgrading): the pending
 * and active settlement addresses and open refunds that existed before MACs get one under
 * SVC_DESTINATION_KEY, listed for the operator to review (`--dry-run` lists without writing).
 * Rows that carry a MAC are never touched. Run once, right after the migration.
 */
export class DestinationsAuthoriseCommand {
  constructor(
    private readonly db: DataSource,
    private readonly config: SvcConfig,
  ) {}

  async run({ dryRun, json }: DestinationsAuthoriseArgs): Promise<void> {
    const key = destinationKeyOf(this.config);
    await connect(this.db);
    const rows = await this.db.transaction((m) => authoriseUnmacedDestinations(m, key, { dryRun }));
    if (json) {
      process.stdout.write(`${JSON.stringify({ dryRun, authorised: rows })}\n`);
      return;
    }
    const lines = rows.map(
      (r) =>
        `${r.kind.padEnd(18)} ${r.id}  workspace ${r.workspaceId}  ${r.chain}/${r.network}  ${r.address}  (${r.status})`,
    );
    const verb = dryRun ? 'would authorise' : 'authorised';
    process.stdout.write(`${verb} ${rows.length} destination(s) that had no MAC:\n${lines.join('\n')}\n`);
  }
}
