// The table of outbound rails (outbound-rail.ts), keyed like the family table
// (libs/chains/src/families.ts): a family whose row has `outbound` has its rail here.
import type { ChainConfig, ChainKind } from '@svc/chains';
import type { SignerContext } from '../context';
import { EvmOutboundRail } from '../rails/evm/evm-outbound-rail';
import { SuiOutboundRail } from '../rails/sui/sui-outbound-rail';
import type { SourceClaims } from './claims';
import { OutboundEngine } from './outbound-engine';
import { OutboundRequestError } from './outbound.errors';
import type { OutboundRail } from './outbound-rail';

export const OUTBOUND_RAILS = {
  evm: (ctx, config, claims) => new EvmOutboundRail(ctx, config, new OutboundEngine(ctx, claims)),
  sui: (ctx, config, claims) => {
    if (!ctx.options.suiKeyring)
      throw new OutboundRequestError(`${config.chain}: the signer was built without Sui keys.`);
    if (config.rpcUrls.length === 0) {
      throw new OutboundRequestError(`${config.chain}/${config.network} has no rpcUrls in the chain registry.`);
    }
    return new SuiOutboundRail(ctx, config, ctx.options.suiKeyring, claims, undefined, ctx.options.suiGasUnits);
  },
} satisfies Partial<Record<ChainKind, RailFactory>>;

type RailFactory = (ctx: SignerContext, config: ChainConfig, claims: SourceClaims) => OutboundRail;

export function outboundRailOf(ctx: SignerContext, config: ChainConfig, claims: SourceClaims): OutboundRail {
  const build = (OUTBOUND_RAILS as Partial<Record<ChainKind, RailFactory>>)[config.kind];
  if (!build) {
    throw new OutboundRequestError(
      `${config.chain}/${config.network} is a ${config.kind} chain; the signer sends on ${Object.keys(OUTBOUND_RAILS).join(' and ')} chains.`,
    );
  }
  return build(ctx, config, claims);
}
