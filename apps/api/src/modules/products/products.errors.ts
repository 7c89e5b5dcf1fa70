// Messages of the product rules, in one place so tests can quote them.

export const usdFormatMessage = (field: string) =>
  `${field} must be a decimal string with at most 2 decimal places, e.g. 37 or 37.50.`;
export const usdFloorMessage = (field: string) => `${field} must be at least 0.01.`;
export const MIN_ABOVE_MAX = 'minAmount must not exceed maxAmount.';
export const PRICE_REQUIRED = 'price is required on a fixed-price product.';
export const PRICE_ON_CUSTOM =
  'price is not accepted on a custom_amount product: the buyer or the session sets the amount.';
export const boundOnFixed = (field: string) => `${field} is only accepted on a custom_amount product.`;
export const priceFormat = (field: string) =>
  `${field} must be a positive decimal string in token units, e.g. 37 or 0.005.`;
export const NETWORKS_OWN_CHAIN = (chain: string) => `networks must include the product's own chain (${chain}).`;
export const immutableField = (field: string) =>
  `${field} cannot be changed: pricingMode, chain, network, token and the base price are fixed at create; use networks to reprice a fixed product per chain.`;
export const productNotFound = (id: string) => `No such product: ${id}.`;
