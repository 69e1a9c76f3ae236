import type { RuntimeConfig } from '@/config/runtime';
import { createAdminClient, type AdminSession } from '@/lib/api/shop';
import { saveAdminSession } from '../stores/admin-session';

function client(config: RuntimeConfig, session: AdminSession) {
  const admin = createAdminClient(config, session);
  admin.hook('onAuthChange', saveAdminSession);
  return admin;
}

/** Starts the appointment for everyone (attendees leave the waiting room). */
export async function startAppointment(config: RuntimeConfig, session: AdminSession, appointmentId: string): Promise<void> {
  await client(config, session).invoke('startAppointment post /_action/dsr/appointment/{appointmentId}/start', {
    pathParams: { appointmentId },
  });
}

/** Ends the appointment for everyone; it cannot be started again. */
export async function endAppointment(config: RuntimeConfig, session: AdminSession, appointmentId: string): Promise<void> {
  await client(config, session).invoke('endAppointment post /_action/dsr/appointment/{appointmentId}/end', {
    pathParams: { appointmentId },
  });
}
