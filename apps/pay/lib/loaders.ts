// Per-request loaders for the server components: React's cache() lets the root layout (for the
// document language), generateMetadata and the page share one API call per request.
import { cache } from 'react';
import { apiPaths, callApi } from './api';
import type { PaymentRail, PublicInvoice, PublicPayment, PublicProduct, PublicReceipt, PublicSession } from './types';

export const loadSession = cache((id: string) => callApi<PublicSession>('GET', apiPaths.session(id)));
export const loadProduct = cache((slug: string) => callApi<PublicProduct>('GET', apiPaths.product(slug)));
export const loadPayment = cache((id: string) => callApi<PublicPayment>('GET', apiPaths.payment(id)));
export const loadRail = cache((id: string) => callApi<PaymentRail>('GET', apiPaths.rail(id)));
export const loadReceipt = cache((id: string) => callApi<PublicReceipt>('GET', apiPaths.receipt(id)));
export const loadInvoice = cache((publicId: string) => callApi<PublicInvoice>('GET', apiPaths.invoice(publicId)));
