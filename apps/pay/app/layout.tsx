import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { documentLocale } from '../lib/request';
import './globals.css';

export const metadata: Metadata = {
  title: 'Checkout',
  // Session pages carry the buyer's credential in the path: keep them out of indexes and Referers.
  robots: { index: false, follow: false },
  referrer: 'no-referrer',
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  colorScheme: 'light dark',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { tag } = await documentLocale();
  return (
    <html lang={tag}>
      <body>{children}</body>
    </html>
  );
}
