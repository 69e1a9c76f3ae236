import type { RuntimeConfig } from '@/config/runtime';
import { createStoreClient, type JoinAppointmentResponse } from '@/lib/api/shop';
import { getCookie, setCookie } from '@/lib/cookies';
import { CONTEXT_TOKEN_COOKIE, saveContextToken } from '@/lib/shop/session';
import { sessionLanguageId } from '../../api/store-client';

const CONTEXT_TOKEN_MAX_AGE = 365 * 24 * 60 * 60;

/**
 * Joins the appointment with this presentation path, with the shop session's context
 * (a logged-in customer joins as that customer, anyone else as a guest). The attendee's
 * context then is the shop session's, so cart and wishlist stay reachable after the end.
 * The answer names the appointment in the page's shop language.
 */
export async function joinAsClient(
  config: RuntimeConfig,
  presentationPath: string,
  attendeeName: string,
): Promise<JoinAppointmentResponse> {
  const client = createStoreClient(config, getCookie(CONTEXT_TOKEN_COOKIE) ?? undefined);
  // The appointment's name in the page's language (the shop's default language when it has none).
  const languageId = sessionLanguageId();
  if (languageId) client.defaultHeaders['sw-language-id'] = languageId;
  const { data } = await client.invoke(
    'joinAppointmentAsClient post /dsr/appointment/{presentationPath}/join-as-client',
    { pathParams: { presentationPath }, body: { attendeeName } },
  );
  if (data.newContextToken) {
    setCookie(CONTEXT_TOKEN_COOKIE, data.newContextToken, CONTEXT_TOKEN_MAX_AGE);
    saveContextToken(data.newContextToken);
  }
  return data;
}
