import type { JoinAppointmentResponse } from '@/lib/api/shop';
import { getCookie, setCookie } from '@/lib/cookies';

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

/** A guest's name is remembered for a day (spec section 9). */
const GUEST_NAME_COOKIE = 'guestName';
const GUEST_NAME_MAX_AGE = 86_400;

export function rememberedGuestName(): string | null {
  return getCookie(GUEST_NAME_COOKIE);
}

export function rememberGuestName(name: string): void {
  setCookie(GUEST_NAME_COOKIE, name, GUEST_NAME_MAX_AGE);
}

/** The attendee's new name in this tab's join and in the guest-name cookie. */
export function rememberAttendeeName(appointmentId: string, name: string): void {
  const session = loadAttendeeSession(appointmentId);
  if (session) saveAttendeeSession(appointmentId, { ...session, attendeeName: name });
  rememberGuestName(name);
}
