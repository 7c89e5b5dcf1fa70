// Per-request loaders for the server components: React's cache() lets the root layout (for the
// document language), generateMetadata and the page share one API call per request. Each call
// forwards the buyer's address (X-Forwarded-For) for the API's rate limits.
import { headers } from 'next/headers';
import { cache } from 'react';
import { apiPaths, callApi } from './api';
import type { PaymentRail, PublicInvoice, PublicPayment, PublicProduct, PublicReceipt, PublicSession } from './types';

export const loadSession = cache(async (id: string) =>
  callApi<PublicSession>('GET', apiPaths.session(id), undefined, await headers()),
);
export const loadProduct = cache(async (slug: string) =>
  callApi<PublicProduct>('GET', apiPaths.product(slug), undefined, await headers()),
);
export const loadLinkPayment = cache(async (slug: string, id: string) =>
  callApi<PublicPayment>('GET', apiPaths.linkPayment(slug, id), undefined, await headers()),
);
export const loadLinkRail = cache(async (slug: string, id: string) =>
  callApi<PaymentRail>('GET', apiPaths.linkRail(slug, id), undefined, await headers()),
);
export const loadReceipt = cache(async (id: string) =>
  callApi<PublicReceipt>('GET', apiPaths.receipt(id), undefined, await headers()),
);
export const loadInvoice = cache(async (publicId: string) =>
  callApi<PublicInvoice>('GET', apiPaths.invoice(publicId), undefined, await headers()),
);
