import type { JoinAppointmentResponse } from '@/lib/api/shop';

/** An attendee's join of one appointment lives for the browser tab (sessionStorage). */
const key = (appointmentId: string) => `salesroom.attendee.${appointmentId}`;
const grantKey = (appointmentId: string) => `salesroom.attendee.${appointmentId}.grantCart`;

export function loadAttendeeSession(appointmentId: string): JoinAppointmentResponse | null {
  const stored = sessionStorage.getItem(key(appointmentId));
  return stored === null ? null : (JSON.parse(stored) as JoinAppointmentResponse);
}

export function saveAttendeeSession(appointmentId: string, session: JoinAppointmentResponse): void {
  sessionStorage.setItem(key(appointmentId), JSON.stringify(session));
}

/** The attendee chose at join time to grant the guide cart rights; sent once connected. */
export function rememberCartGrant(appointmentId: string): void {
  sessionStorage.setItem(grantKey(appointmentId), '1');
}

/** Whether a join-time grant still has to be sent; taking it clears it. */
export function takeCartGrant(appointmentId: string): boolean {
  const pending = sessionStorage.getItem(grantKey(appointmentId)) === '1';
  sessionStorage.removeItem(grantKey(appointmentId));
  return pending;
}
