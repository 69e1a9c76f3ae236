import { describe, expect, it } from 'vitest';
import { emptyForm, formFromEntity, parseEmails, pathFromName, statusOf, toPayload, utcToZoned, validate, zonedToUtc, type AppointmentEntity } from './appointment-form';

const entity: AppointmentEntity = {
  id: 'a1',
  name: 'Autumn live',
  presentationId: 'p1',
  guideUserId: null,
  presentationPath: 'autumn-live',
  mode: 'guided',
  attendeeRestrictionType: 'customer',
  videoAudioSettings: 'audio-only',
  broadcastMode: true,
  accessibleFrom: '2026-12-01T17:00:00Z',
  accessibleTo: null,
  startedAt: null,
  endedAt: null,
  translations: [
    { languageId: 'en-id', name: 'Autumn live' },
    { languageId: 'de-id', name: 'Herbst live' },
  ],
};

describe('appointment form', () => {
  it('turns wall-clock time in a time zone into UTC and back, across daylight saving', () => {
    expect(zonedToUtc('2026-12-01T18:00', 'Europe/Berlin')).toBe('2026-12-01T17:00:00Z');
    expect(zonedToUtc('2026-07-01T18:00', 'Europe/Berlin')).toBe('2026-07-01T16:00:00Z');
    expect(zonedToUtc('2026-07-01T18:00', 'America/New_York')).toBe('2026-07-01T22:00:00Z');
    expect(zonedToUtc('2026-07-01T18:00', 'UTC')).toBe('2026-07-01T18:00:00Z');
    expect(zonedToUtc('not a date', 'UTC')).toBeNull();
    expect(utcToZoned('2026-12-01T17:00:00Z', 'Europe/Berlin')).toBe('2026-12-01T18:00');
    expect(utcToZoned(null, 'UTC')).toBe('');
  });

  it('reads the names per language and writes them as translations', () => {
    const form = formFromEntity(entity, { en: 'en-id', de: 'de-id' }, 'Europe/Berlin');
    expect(form).toMatchObject({ nameEn: 'Autumn live', nameDe: 'Herbst live', restriction: 'customer', videoAudio: 'audio-only', broadcast: true, start: '2026-12-01T18:00' });
    expect(toPayload({ ...form, nameDe: 'Herbst – live' })).toEqual({
      name: 'Autumn live',
      translations: { 'de-DE': { name: 'Herbst – live' } },
      presentationId: 'p1',
      guideUserId: null,
      presentationPath: 'autumn-live',
      mode: 'guided',
      attendeeRestrictionType: 'customer',
      videoAudioSettings: 'audio-only',
      broadcastMode: true,
      accessibleFrom: '2026-12-01T17:00:00Z',
      accessibleTo: null,
      timeZone: 'Europe/Berlin',
    });
    expect(toPayload({ ...form, nameDe: ' ' })).not.toHaveProperty('translations');
  });

  it('keeps the zone an appointment was planned in, whatever the viewer\'s zone (issue #31, item 5)', () => {
    // Saved in Berlin, opened again by a browser in UTC: still 18:00 Berlin, not 17:00 UTC.
    const saved = { ...entity, timeZone: 'Europe/Berlin' };
    const form = formFromEntity(saved, { en: 'en-id', de: 'de-id' }, 'UTC');
    expect(form).toMatchObject({ timeZone: 'Europe/Berlin', start: '2026-12-01T18:00' });
    expect(toPayload(form)).toMatchObject({ accessibleFrom: '2026-12-01T17:00:00Z', timeZone: 'Europe/Berlin' });
    // Summer time in Berlin is UTC+2; New York's is UTC-4.
    const summer = formFromEntity({ ...saved, accessibleFrom: '2027-07-01T16:00:00Z' }, {}, 'America/New_York');
    expect(summer.start).toBe('2027-07-01T18:00');
    // An appointment without a zone (made before zones were kept) falls back to the given one.
    expect(formFromEntity({ ...entity, timeZone: null }, {}, 'UTC')).toMatchObject({ timeZone: 'UTC', start: '2026-12-01T17:00' });
  });

  it('names every field that is missing or wrong', () => {
    expect(validate(emptyForm('UTC'))).toEqual({ name: 'nameRequired', presentationId: 'presentationRequired', presentationPath: 'pathRequired' });
    const form = { ...emptyForm('UTC'), nameEn: 'x', presentationId: 'p', presentationPath: 'Bad Path!' };
    expect(validate(form)).toEqual({ presentationPath: 'pathInvalid' });
    expect(validate({ ...form, presentationPath: 'a'.repeat(65) })).toEqual({ presentationPath: 'pathInvalid' });
    expect(validate({ ...form, presentationPath: 'ok-1', start: '2026-12-01T18:00', end: '2026-12-01T17:00' })).toEqual({ accessibleTo: 'endBeforeStart' });
    expect(validate({ ...form, presentationPath: 'ok-1', start: '2026-12-01T18:00', end: '2026-12-01T19:00' })).toEqual({});
  });

  it('suggests a path from the name and reads addresses and status', () => {
    expect(pathFromName('Große Herbst-Show 2026!')).toBe('grosse-herbst-show-2026');
    expect(parseEmails(' Ada@Example.com, bob@example.com;\nada@example.com ')).toEqual(['ada@example.com', 'bob@example.com']);
    const now = new Date('2026-11-26T12:00:00Z');
    expect(statusOf({ startedAt: null, endedAt: null, accessibleTo: null }, now)).toBe('upcoming');
    expect(statusOf({ startedAt: '2026-11-26T11:00:00Z', endedAt: null, accessibleTo: null }, now)).toBe('live');
    expect(statusOf({ startedAt: null, endedAt: null, accessibleTo: '2026-11-25T00:00:00Z' }, now)).toBe('ended');
    expect(statusOf({ startedAt: 'x', endedAt: 'y', accessibleTo: null }, now)).toBe('ended');
  });
});
