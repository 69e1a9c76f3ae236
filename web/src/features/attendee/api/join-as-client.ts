import type { RuntimeConfig } from '@/config/runtime';
import { createStoreClient, type JoinAppointmentResponse } from '@/lib/api/shop';

/** Joins the appointment with this presentation path as a guest attendee. */
export async function joinAsClient(
  config: RuntimeConfig,
  presentationPath: string,
  attendeeName: string,
): Promise<JoinAppointmentResponse> {
  const { data } = await createStoreClient(config).invoke(
    'joinAppointmentAsClient post /dsr/appointment/{presentationPath}/join-as-client',
    { pathParams: { presentationPath }, body: { attendeeName } },
  );
  return data;
}
