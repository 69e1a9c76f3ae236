import type { RuntimeConfig } from '@/config/runtime';
import { createAdminClient, type AdminSession, type JoinAppointmentResponse } from '@/lib/api/shop';
import { sessionLanguageId } from '../../api/store-client';
import { saveAdminSession } from '../stores/admin-session';

/**
 * Finds the appointment by its presentation path and joins it as guide; null when there
 * is no such appointment. The answer names the appointment in the cockpit's shop language.
 */
export async function joinAsGuide(
  config: RuntimeConfig,
  session: AdminSession,
  presentationPath: string,
): Promise<JoinAppointmentResponse | null> {
  const client = createAdminClient(config, session);
  // The client refreshes an expired access token; keep the new one.
  client.hook('onAuthChange', saveAdminSession);
  // The appointment's name in the cockpit's language (the language cookie may not be set yet).
  const languageId = sessionLanguageId();
  if (languageId) client.defaultHeaders['sw-language-id'] = languageId;
  const { data: found } = await client.invoke('searchDsrAppointment post /search/dsr-appointment', {
    body: { filter: [{ type: 'equals', field: 'presentationPath', value: presentationPath }], limit: 1 },
  });
  const appointmentId = found.data?.[0]?.id;
  if (!appointmentId) return null;
  const { data: joined } = await client.invoke(
    'joinAppointmentAsGuide post /_action/dsr/appointment/{appointmentId}/join-as-guide',
    { pathParams: { appointmentId } },
  );
  return joined;
}
