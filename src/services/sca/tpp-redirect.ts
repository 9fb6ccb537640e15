import { parseHttpAddress } from '../../domain/redirect-uri.js';
import type { Authorisation } from '../../store/sca-records.js';
import { type ScaMessage, type ScaPage, message } from './sca-page.js';

/** Back to the TPP: psu-id and tpp-session-id added to its redirect URI, keeping its own query (state). */
export function backToTpp(
  authorisation: Authorisation,
  psuId: string,
  failure: string | undefined,
  done: ScaMessage,
): ScaPage {
  // A stored address the parser refuses leaves the PSU on our page, not on a 500 (docs/decisions/0155).
  const url = authorisation.tppRedirectUri === undefined ? undefined : parseHttpAddress(authorisation.tppRedirectUri);
  if (url === undefined) return message(done, undefined);
  url.searchParams.set('psu-id', psuId);
  url.searchParams.set('tpp-session-id', authorisation.tppSessionId ?? '');
  if (failure !== undefined) url.searchParams.set('message', failure);
  return { kind: 'redirect', url: url.toString(), outcome: done };
}

/** Back to the TPP after the PSU authenticated but approved nothing: psu-id, tpp-session-id and a message saying why. */
export function returnUrl(authorisation: Authorisation, psuId: string, reason: string): string | undefined {
  const url = authorisation.tppRedirectUri === undefined ? undefined : parseHttpAddress(authorisation.tppRedirectUri);
  if (url === undefined) return undefined;
  url.searchParams.set('psu-id', psuId);
  url.searchParams.set('tpp-session-id', authorisation.tppSessionId ?? '');
  url.searchParams.set('message', reason);
  return url.toString();
}

/** Where the browser may return after a failure: the TPP's address with a message and no psu-id. */
export function failureRedirect(authorisation: Authorisation, reason: string): string | undefined {
  const url = authorisation.tppRedirectUri === undefined ? undefined : parseHttpAddress(authorisation.tppRedirectUri);
  if (url === undefined) return undefined;
  if (authorisation.tppSessionId !== undefined) url.searchParams.set('tpp-session-id', authorisation.tppSessionId);
  url.searchParams.set('message', reason);
  return url.toString();
}
