// The API's half of "the signer pays only destinations the API authorised" (issue 19 › Keys;
// docs/money-out.md › Destinations): the MAC a settlement address or a refund carries from the
// moment it is created, and the operator's one-time authorisation of the rows that existed
// before destination MACs (`npm run svc -- destinations:authorise`).
import type { EntityManager } from 'typeorm';
import type { RefundEntity, SettlementAddressEntity } from '@svc/db';
import { destinationMac, refundDestination, settlementDestination } from '@svc/domain';

type SettlementFields = Pick<SettlementAddressEntity, 'id' | 'workspaceId' | 'chain' | 'address' | 'activatesAt'> & {
  network: string;
};
type RefundFields = Pick<RefundEntity, 'id' | 'workspaceId' | 'chain' | 'tokenAddress' | 'toAddress'> & {
  network: string;
};

export function settlementAddressMac(key: Buffer, a: SettlementFields): string {
  return destinationMac(key, settlementDestination(a));
}

export function refundDestinationMac(key: Buffer, r: RefundFields): string {
  return destinationMac(key, refundDestination(r));
}

/** One row the operator's authorisation covers (or would, with --dry-run). */
export interface AuthorisedDestination {
  kind: 'settlement_address' | 'refund';
  id: string;
  workspaceId: string;
  chain: string;
  network: string;
  address: string;
  status: string;
}

/**
 * The upgrade step (docs/money-out.md › Destinations › Upgrading): gives a MAC to every pending or
 * active settlement address and every open refund (pending, awaiting_funds, submitted) that has
 * none, and returns them for the operator to review. It never replaces a MAC that is there (a row
 * changed after the API authorised it stays refused), and skips retired addresses and finished
 * refunds (nothing more is paid to them). Run it once, right after the migration, on a database
 * only the service has written to.
 */
export async function authoriseUnmacedDestinations(
  m: EntityManager,
  key: Buffer,
  options: { dryRun: boolean },
): Promise<AuthorisedDestination[]> {
  const out: AuthorisedDestination[] = [];
  const addresses: Array<Record<string, unknown>> = await m.query(
    `SELECT id, workspace_id, chain, network, address, status, activates_at FROM settlement_addresses
     WHERE destination_mac IS NULL AND status IN ('pending', 'active') ORDER BY created_at, id FOR UPDATE`,
  );
  for (const r of addresses) {
    const a = {
      id: r.id as string,
      workspaceId: r.workspace_id as string,
      chain: r.chain as string,
      network: r.network as string,
      address: r.address as string,
      activatesAt: new Date(r.activates_at as Date),
    };
    if (!options.dryRun) {
      await m.query('UPDATE settlement_addresses SET destination_mac = $2 WHERE id = $1 AND destination_mac IS NULL', [
        a.id,
        settlementAddressMac(key, a),
      ]);
    }
    out.push({ kind: 'settlement_address', ...a, status: r.status as string });
  }
  const refunds: Array<Record<string, unknown>> = await m.query(
    `SELECT id, workspace_id, chain, network, token_address, to_address, status FROM refunds
     WHERE destination_mac IS NULL AND status IN ('pending', 'awaiting_funds', 'submitted') ORDER BY created_at, id FOR UPDATE`,
  );
  for (const r of refunds) {
    const refund = {
      id: r.id as string,
      workspaceId: r.workspace_id as string,
      chain: r.chain as string,
      network: r.network as string,
      tokenAddress: (r.token_address as string | null) ?? null,
      toAddress: r.to_address as string,
    };
    if (!options.dryRun) {
      await m.query('UPDATE refunds SET destination_mac = $2 WHERE id = $1 AND destination_mac IS NULL', [
        refund.id,
        refundDestinationMac(key, refund),
      ]);
    }
    out.push({
      kind: 'refund',
      id: refund.id,
      workspaceId: refund.workspaceId,
      chain: refund.chain,
      network: refund.network,
      address: refund.toAddress,
      status: r.status as string,
    });
  }
  return out;
}
