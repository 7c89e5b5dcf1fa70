// money contract › Settlement addresses: "When activatesAt passes it becomes active; the first
// active address of a (chain, network) becomes its default", with settlement.address_activated in
// the same transaction. Time-driven (the listener's jobs run it); the service clock decides, so the
// dev clock moves cool-downs too.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ClockService, inRetriedTransaction } from '@svc/core';
import { appendEvents } from '../events/outbox';
import { settlementAddressEvent } from '../events/settlement-events';
import { SettlementAddressRepository } from './settlement-address.repository';

@Injectable()
export class SettlementActivation {
  constructor(
    private readonly db: DataSource,
    private readonly clock: ClockService,
    private readonly addresses: SettlementAddressRepository,
  ) {}

  /** Activates up to `limit` addresses whose cool-down is over; returns how many. */
  async activateDue(limit: number): Promise<number> {
    let activated = 0;
    for (const due of await this.addresses.due(this.clock.now(), limit)) {
      const done = await inRetriedTransaction(this.db, async (tx) => {
        const now = this.clock.now();
        // rail first, then the row (the API's default changes take them in this order too)
        await this.addresses.lockRail(tx, due.workspaceId, due);
        const a = await this.addresses.activate(tx, due.id, now);
        if (!a) return false; // cancelled meanwhile, or another copy was first
        await appendEvents(tx, a.workspaceId, [settlementAddressEvent('settlement.address_activated', a)], now);
        return true;
      });
      if (done) activated++;
    }
    return activated;
  }
}
