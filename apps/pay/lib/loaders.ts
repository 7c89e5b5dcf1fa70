// Per-request loaders for the server components: React's cache() lets the root layout (for the
// document language), generateMetadata and the page share one API call per request.
import { cache } from 'react';
import { apiPaths, callApi } from './api';
import type { PaymentRail, PublicPayment, PublicProduct, PublicSession } from './types';

export const loadSession = cache((id: string) => callApi<PublicSession>('GET', apiPaths.session(id)));
export const loadProduct = cache((slug: string) => callApi<PublicProduct>('GET', apiPaths.product(slug)));
export const loadPayment = cache((id: string) => callApi<PublicPayment>('GET', apiPaths.payment(id)));
export const loadRail = cache((id: string) => callApi<PaymentRail>('GET', apiPaths.rail(id)));
