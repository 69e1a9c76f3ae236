import type { RuntimeConfig } from '@/config/runtime';
import type { PublicAppointment } from '@/lib/api/shop';
import { formatDateTime } from '@/lib/format';
import { roomStoreClient } from '../../api/store-client';

/**
 * The appointments a visitor may still join, live ones first (`GET /store-api/dsr/appointments`),
 * named in the page's shop language (the shop's default language where one has no name in it).
 */
export async function loadUpcomingAppointments(config: RuntimeConfig): Promise<PublicAppointment[]> {
  const { data } = await roomStoreClient(config).invoke('listPublicAppointments get /dsr/appointments', {});
  return data.elements;
}

/** When an appointment starts (or started), in the visitor's own time zone and language; null when it has no time. */
export function formatStart(appointment: Pick<PublicAppointment, 'startedAt' | 'accessibleFrom' | 'live'>, locale: string, timeZone?: string): string | null {
  const at = appointment.live ? (appointment.startedAt ?? appointment.accessibleFrom) : appointment.accessibleFrom;
  return formatAt(at, locale, timeZone);
}

/** A self-service appointment's window (from, to), each in the visitor's own time zone and language; null where it has none. */
export function formatWindow(
  appointment: Pick<PublicAppointment, 'accessibleFrom' | 'accessibleTo'>,
  locale: string,
  timeZone?: string,
): { from: string | null; to: string | null } {
  return { from: formatAt(appointment.accessibleFrom, locale, timeZone), to: formatAt(appointment.accessibleTo, locale, timeZone) };
}

function formatAt(at: string | null, locale: string, timeZone?: string): string | null {
  if (!at) return null;
  return (
    formatDateTime(at, {
      locale,
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone,
      timeZoneName: 'short',
    }) || null
  );
}
