// Messages of the settlement address rules (money contract › Settlement addresses), in one place so
// tests can quote them. The contract fixes the 409s of set-default, delete and routes verbatim.
export { ONLY_ACTIVE_CAN_BE_DEFAULT } from '@svc/domain';

export const settlementAddressNotFound = (id: string) => `No such settlement address: ${id}.`;
export const unknownRail = (chain: string, network: string) =>
  `${chain}/${network} is not in the chain registry: a settlement address needs a registered chain and network.`;
export const duplicateAddress = (address: string, chain: string, network: string, id: string) =>
  `${address} is already a settlement address on ${chain}/${network} (${id}).`;
export const depositAddressRefused = (address: string) =>
  `${address} is a deposit address of this service; a settlement address must be a wallet you control.`;
export const notActiveOnRail = (id: string, chain: string, network: string) =>
  `Settlement address ${id} is not active on ${chain}/${network}.`;
export const duplicateRoute = (chain: string, network: string) =>
  `routes must name each chain and network once; ${chain}/${network} appears more than once.`;
