// The pay app's own page paths (relative: the pages link within the app, whatever its public address).
export const invoicePath = (publicId: string): string => `/i/${encodeURIComponent(publicId)}`;
export const receiptPath = (id: string): string => `/r/${encodeURIComponent(id)}`;
export const sessionPath = (id: string): string => `/c/${encodeURIComponent(id)}`;
