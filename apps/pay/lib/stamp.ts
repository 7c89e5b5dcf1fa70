// What the /c/<id> page shows changes only when one of these does: the island polls the public
// session and asks the server for a fresh render (router.refresh) only when the stamp moved.
import type { PublicSession } from './types';

export function sessionStamp(s: PublicSession): string {
  // the payment read has no field that moves by itself (no clock); the return URL is only present or not
  return JSON.stringify([s.status, s.late, s.pinnedChain, !s.returnUrl, s.payment]);
}
