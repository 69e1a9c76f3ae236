import type { RuntimeConfig } from '@/config/runtime';
import { createStoreClient } from '@/lib/api/shop';

/** What an invited attendee can answer (spec section 3). */
export type InvitationResponse = 'accepted' | 'maybe' | 'declined';

export const INVITATION_RESPONSES: readonly InvitationResponse[] = ['accepted', 'maybe', 'declined'];

/**
 * Answers the invitation as the attendee of this context token
 * (`PATCH /store-api/dsr/appointment/{appointmentId}/attendee/respond-invitation`); `token`
 * is the invitation mail's, empty when the attendee came by the invitation link alone.
 */
export async function respondInvitation(
  config: RuntimeConfig,
  contextToken: string,
  appointmentId: string,
  answer: InvitationResponse,
  token = '',
): Promise<InvitationResponse> {
  const { data } = await createStoreClient(config, contextToken).invoke(
    'attendeeRespondInvitation patch /dsr/appointment/{appointmentId}/attendee/respond-invitation',
    { pathParams: { appointmentId }, body: { answer, token } },
  );
  return ((data as { answer?: InvitationResponse }).answer ?? answer);
}
