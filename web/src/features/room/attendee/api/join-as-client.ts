import type { RuntimeConfig } from '@/config/runtime';
import { createStoreClient, type JoinAppointmentResponse } from '@/lib/api/shop';
import { getCookie, setCookie } from '@/lib/cookies';
import { CONTEXT_TOKEN_COOKIE, saveContextToken } from '@/lib/shop/session';

const CONTEXT_TOKEN_MAX_AGE = 365 * 24 * 60 * 60;

/**
 * Joins the appointment with this presentation path, with the shop session's context
 * (a logged-in customer joins as that customer, anyone else as a guest). The attendee's
 * context then is the shop session's, so cart and wishlist stay reachable after the end.
 */
export async function joinAsClient(
  config: RuntimeConfig,
  presentationPath: string,
  attendeeName: string,
): Promise<JoinAppointmentResponse> {
  const { data } = await createStoreClient(config, getCookie(CONTEXT_TOKEN_COOKIE) ?? undefined).invoke(
    'joinAppointmentAsClient post /dsr/appointment/{presentationPath}/join-as-client',
    { pathParams: { presentationPath }, body: { attendeeName } },
  );
  if (data.newContextToken) {
    setCookie(CONTEXT_TOKEN_COOKIE, data.newContextToken, CONTEXT_TOKEN_MAX_AGE);
    saveContextToken(data.newContextToken);
  }
  return data;
}
