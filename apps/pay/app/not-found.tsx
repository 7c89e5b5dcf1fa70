// Unknown or malformed ids and unknown paths (HTTP 404).
import { Notice } from '../components/notice';
import { messagesFor } from '../lib/messages';
import { requestLocale } from '../lib/request';

export default async function NotFound() {
  const m = messagesFor((await requestLocale()).lang);
  return <Notice title={m.notFoundTitle} detail={m.notFoundDetail} />;
}
