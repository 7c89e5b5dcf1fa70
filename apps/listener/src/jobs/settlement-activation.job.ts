import { Injectable } from '@nestjs/common';
import { SettlementActivation } from '@svc/payments';

/**
 * money contract › Settlement addresses: a pending address becomes active once its `activatesAt`
 * (the cool-down, on the service clock) has passed; the first active address of a rail becomes its
 * default; settlement.address_activated. The verdict and the write are SettlementActivation's.
 */
@Injectable()
export class SettlementActivationJob {
  constructor(private readonly activation: SettlementActivation) {}

  run(batchSize: number): Promise<number> {
    return this.activation.activateDue(batchSize);
  }
}
