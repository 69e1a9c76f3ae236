import type { JoinAppointmentResponse } from '@/lib/api/shop';

/** An attendee's join of one appointment lives for the browser tab (sessionStorage). */
const key = (appointmentId: string) => `salesroom.attendee.${appointmentId}`;

export function loadAttendeeSession(appointmentId: string): JoinAppointmentResponse | null {
  const stored = sessionStorage.getItem(key(appointmentId));
  return stored === null ? null : (JSON.parse(stored) as JoinAppointmentResponse);
}

export function saveAttendeeSession(appointmentId: string, session: JoinAppointmentResponse): void {
  sessionStorage.setItem(key(appointmentId), JSON.stringify(session));
}
