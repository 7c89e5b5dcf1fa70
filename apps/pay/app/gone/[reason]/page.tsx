// Reached through middleware.ts with HTTP 410: the payment link of a legacy subscription product
// (spec: Errors › 410) or of an archived product ("no longer available").
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Notice } from '../../../components/notice';
import { messagesFor } from '../../../lib/messages';
import { requestLocale } from '../../../lib/request';

export const metadata: Metadata = { title: 'Gone' };

export default async function Gone({ params }: { params: Promise<{ reason: string }> }) {
  const { reason } = await params;
  const m = messagesFor((await requestLocale()).lang);
  if (reason === 'subscription') return <Notice title={m.goneTitle} detail={m.goneDetail} />;
  if (reason === 'archived') return <Notice title={m.archivedTitle} detail={m.archivedDetail} />;
  notFound();
}
