// Per-request loaders for the server components: React's cache() lets the root layout (for the
// document language), generateMetadata and the page share one API call per request.
import { cache } from 'react';
import { apiPaths, callApi } from './api';
import type { PaymentRail, PublicPayment, PublicProduct, PublicSession } from './types';

export const loadSession = cache((id: string) => callApi<PublicSession>('GET', apiPaths.session(id)));
export const loadProduct = cache((slug: string) => callApi<PublicProduct>('GET', apiPaths.product(slug)));
export const loadLinkPayment = cache((slug: string, id: string) =>
  callApi<PublicPayment>('GET', apiPaths.linkPayment(slug, id)),
);
export const loadLinkRail = cache((slug: string, id: string) =>
  callApi<PaymentRail>('GET', apiPaths.linkRail(slug, id)),
);
