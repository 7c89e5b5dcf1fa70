// Every migration, in order. Listed explicitly so the built service and the tests run the same set.
import { Foundation1763780000000 } from './1763780000000-Foundation';
import { ChainCursors1763790000000 } from './1763790000000-ChainCursors';
import { Webhooks1763800000000 } from './1763800000000-Webhooks';
import { PaymentWatchAndJobs1763810000000 } from './1763810000000-PaymentWatchAndJobs';
import { Outbound1763900000000 } from './1763900000000-Outbound';
import { Documents1763910000000 } from './1763910000000-Documents';
import { ApiKeyLastUsed1763920000000 } from './1763920000000-ApiKeyLastUsed';
import { ExpiryWaitsForWatcher1763925000000 } from './1763925000000-ExpiryWaitsForWatcher';
import { Payouts1763930000000 } from './1763930000000-Payouts';
import { Refunds1763940000000 } from './1763940000000-Refunds';
import { OpenLinkPaymentsAndWatchPages1763951000000 } from './1763951000000-OpenLinkPaymentsAndWatchPages';
import { CheckoutBranding1764100000000 } from './1764100000000-CheckoutBranding';
import { SecretsAtRest1764100000001 } from './1764100000001-SecretsAtRest';
import { SweepAndRefundCancelled1795639600000 } from './1795639600000-SweepAndRefundCancelled';
import { StuckRowsRoundRobin1795639700000 } from './1795639700000-StuckRowsRoundRobin';
import { OutboundLegsAndClaims1795640000000 } from './1795640000000-OutboundLegsAndClaims';
import { DepositKeyMaterial1795650000001 } from './1795650000001-DepositKeyMaterial';
import { DestinationMacs1795661900019 } from './1795661900019-DestinationMacs';
import { OutboundCheckFacts1795662000000 } from './1795662000000-OutboundCheckFacts';
import { PayoutRunIndexes1795662100000 } from './1795662100000-PayoutRunIndexes';
import { PayoutWatermark1795662200000 } from './1795662200000-PayoutWatermark';
import { PayoutGateIndexes1795662380000 } from './1795662380000-PayoutGateIndexes';
import { WebhookAttemptKey1795662411000 } from './1795662411000-WebhookAttemptKey';

export const MIGRATIONS = [
  Foundation1763780000000,
  ChainCursors1763790000000,
  Webhooks1763800000000,
  PaymentWatchAndJobs1763810000000,
  Outbound1763900000000,
  Documents1763910000000,
  ApiKeyLastUsed1763920000000,
  ExpiryWaitsForWatcher1763925000000,
  Payouts1763930000000,
  Refunds1763940000000,
  OpenLinkPaymentsAndWatchPages1763951000000,
  CheckoutBranding1764100000000,
  SecretsAtRest1764100000001,
  SweepAndRefundCancelled1795639600000,
  StuckRowsRoundRobin1795639700000,
  OutboundLegsAndClaims1795640000000,
  DepositKeyMaterial1795650000001,
  DestinationMacs1795661900019,
  OutboundCheckFacts1795662000000,
  PayoutRunIndexes1795662100000,
  PayoutWatermark1795662200000,
  PayoutGateIndexes1795662380000,
  WebhookAttemptKey1795662411000,
];
