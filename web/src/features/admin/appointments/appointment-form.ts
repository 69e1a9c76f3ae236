import { TZDate } from '@date-fns/tz';

/**
 * The appointment editor's state and its way to and from the Admin API
 * (`dsr-appointment`): names per language, times as wall-clock time in the appointment's
 * time zone (stored as instants in UTC, with the zone beside them), the path attendees
 * open. Pure, so it is tested without a browser.
 */

export type AppointmentMode = 'guided' | 'self';
export type Restriction = 'open' | 'customer';
export type VideoAudio = 'both' | 'audio-only' | 'none';

/** An appointment as the Admin API answers it (the fields the backoffice uses). */
export interface AppointmentEntity {
  id: string;
  name: string | null;
  presentationId: string;
  guideUserId?: string | null;
  presentationPath: string;
  mode: AppointmentMode;
  attendeeRestrictionType: Restriction | 'rules';
  videoAudioSettings: VideoAudio;
  /** The live room starts in broadcast mode (only the guide publishes). */
  broadcastMode?: boolean;
  accessibleFrom: string | null;
  accessibleTo: string | null;
  /** The IANA zone it is planned in (`UTC` for appointments made before zones were kept). */
  timeZone?: string | null;
  startedAt: string | null;
  endedAt: string | null;
  translations?: { languageId: string; name: string | null }[];
}

export interface AppointmentForm {
  nameEn: string;
  nameDe: string;
  presentationId: string;
  guideUserId: string;
  presentationPath: string;
  mode: AppointmentMode;
  restriction: Restriction;
  videoAudio: VideoAudio;
  /** Broadcast mode when the room starts: attendees cannot publish camera or microphone. */
  broadcast: boolean;
  /** `YYYY-MM-DDTHH:mm` in `timeZone`, or empty. */
  start: string;
  end: string;
  timeZone: string;
}

/** Longest path, as the server allows (`MAX_PATH`). */
export const MAX_PATH = 64;
const PATH = /^[a-z0-9-]+$/;

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function emptyForm(timeZone = browserTimeZone()): AppointmentForm {
  return {
    nameEn: '',
    nameDe: '',
    presentationId: '',
    guideUserId: '',
    presentationPath: '',
    mode: 'guided',
    restriction: 'open',
    videoAudio: 'both',
    broadcast: false,
    start: '',
    end: '',
    timeZone,
  };
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** Wall-clock `YYYY-MM-DDTHH:mm` in `timeZone` → ISO 8601 in UTC (`…Z`); empty stays empty. */
export function zonedToUtc(local: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local);
  if (!match) return null;
  const [y, mo, d, h, mi] = match.slice(1).map(Number) as [number, number, number, number, number];
  const instant = new TZDate(y, mo - 1, d, h, mi, timeZone).getTime();
  if (Number.isNaN(instant)) return null;
  return new Date(instant).toISOString().replace('.000Z', 'Z');
}

/** ISO 8601 → wall-clock `YYYY-MM-DDTHH:mm` in `timeZone` (for the inputs). */
export function utcToZoned(iso: string | null, timeZone: string): string {
  if (!iso) return '';
  const instant = new Date(iso).getTime();
  if (Number.isNaN(instant)) return '';
  const local = new TZDate(instant, timeZone);
  if (Number.isNaN(local.getTime())) return '';
  return `${pad(local.getFullYear(), 4)}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}T${pad(local.getHours())}:${pad(local.getMinutes())}`;
}

/**
 * The form of a stored appointment; `languages` maps `en`/`de` to language ids. Its times
 * are shown in the zone it was planned in; `fallbackZone` only for one that names none.
 */
export function formFromEntity(entity: AppointmentEntity, languages: { en?: string; de?: string }, fallbackZone = browserTimeZone()): AppointmentForm {
  const timeZone = entity.timeZone || fallbackZone;
  const nameIn = (id?: string) => entity.translations?.find((t) => t.languageId === id)?.name ?? '';
  return {
    nameEn: nameIn(languages.en) || entity.name || '',
    nameDe: nameIn(languages.de),
    presentationId: entity.presentationId,
    guideUserId: entity.guideUserId ?? '',
    presentationPath: entity.presentationPath,
    mode: entity.mode,
    restriction: entity.attendeeRestrictionType === 'customer' ? 'customer' : 'open',
    videoAudio: entity.videoAudioSettings,
    broadcast: entity.broadcastMode ?? false,
    start: utcToZoned(entity.accessibleFrom, timeZone),
    end: utcToZoned(entity.accessibleTo, timeZone),
    timeZone,
  };
}

/** Field keys as the Admin API's pointers name them. */
export type ErrorKey = 'nameRequired' | 'presentationRequired' | 'pathRequired' | 'pathInvalid' | 'dateInvalid' | 'endBeforeStart';
export type FormErrors = Partial<Record<'name' | 'presentationId' | 'presentationPath' | 'accessibleFrom' | 'accessibleTo', ErrorKey>>;

/** Checks before sending (the server checks again): message keys under `admin.appointments.errors`. */
export function validate(form: AppointmentForm): FormErrors {
  const errors: FormErrors = {};
  if (!form.nameEn.trim()) errors.name = 'nameRequired';
  if (!form.presentationId) errors.presentationId = 'presentationRequired';
  if (!form.presentationPath) errors.presentationPath = 'pathRequired';
  else if (!PATH.test(form.presentationPath) || form.presentationPath.length > MAX_PATH) errors.presentationPath = 'pathInvalid';
  const start = form.start ? zonedToUtc(form.start, form.timeZone) : null;
  const end = form.end ? zonedToUtc(form.end, form.timeZone) : null;
  if (form.start && !start) errors.accessibleFrom = 'dateInvalid';
  if (form.end && !end) errors.accessibleTo = 'dateInvalid';
  if (start && end && end <= start) errors.accessibleTo = 'endBeforeStart';
  return errors;
}

/** A path from a name: lowercase letters, digits and dashes. */
export function pathFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_PATH);
}

/** The Admin API payload of the form (create and update alike). */
export function toPayload(form: AppointmentForm): Record<string, unknown> {
  const translations: Record<string, { name: string }> = {};
  if (form.nameDe.trim()) translations['de-DE'] = { name: form.nameDe.trim() };
  return {
    name: form.nameEn.trim(),
    ...(Object.keys(translations).length ? { translations } : {}),
    presentationId: form.presentationId,
    guideUserId: form.guideUserId || null,
    presentationPath: form.presentationPath,
    mode: form.mode,
    attendeeRestrictionType: form.restriction,
    videoAudioSettings: form.videoAudio,
    broadcastMode: form.broadcast,
    accessibleFrom: form.start ? zonedToUtc(form.start, form.timeZone) : null,
    accessibleTo: form.end ? zonedToUtc(form.end, form.timeZone) : null,
    timeZone: form.timeZone,
  };
}

export type AppointmentStatus = 'upcoming' | 'live' | 'ended';

/** Live once started, ended once ended or past its window, else upcoming. */
export function statusOf(appointment: Pick<AppointmentEntity, 'startedAt' | 'endedAt' | 'accessibleTo'>, now = new Date()): AppointmentStatus {
  if (appointment.endedAt) return 'ended';
  if (appointment.startedAt) return 'live';
  if (appointment.accessibleTo && new Date(appointment.accessibleTo) < now) return 'ended';
  return 'upcoming';
}

/** Most addresses one invitation request takes (the server's `MAX_EMAILS`). */
export const MAX_EMAILS = 50;

/** Addresses typed into the invite box: split at commas, semicolons, spaces and lines. */
export function parseEmails(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((e) => e.trim().toLowerCase()).filter(Boolean))];
}

/** The invitation page of an appointment (`/invitation/{path}`). */
export function invitationLink(origin: string, path: string): string {
  return `${origin.replace(/\/$/, '')}/invitation/${path}`;
}
