// Messages of the invoice rules (money contract › Invoices); the status conflicts are libs/domain's.
export const invoiceNotFound = (id: string) => `No such invoice: ${id}.`;
export const DUPLICATE_RAIL_CHAIN = 'networks must name each chain once: the buyer picks a rail by its chain.';
export const NO_STABLECOIN_RAILS = 'networks: the registry has no live stablecoin rail on mainnet; name the rails.';
export const DUE_AT_FORMAT = 'dueAt must be an ISO 8601 timestamp, e.g. 2026-12-31T23:59:59.000Z.';
export const FUNDS_SENT_VOID =
  "Funds have already been sent to this invoice's checkout, so it cannot be voided. Wait until that payment completes or fails.";
