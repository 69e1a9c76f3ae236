import { describe, expect, it } from 'vitest';
import { formatStart, formatWindow } from './upcoming';

describe('formatStart', () => {
  const upcoming = { live: false, startedAt: null, accessibleFrom: '2026-12-03T17:00:00Z' };

  it("shows the start in the visitor's time zone and language", () => {
    expect(formatStart(upcoming, 'en-GB', 'Europe/Berlin')).toBe('Thursday, 3 December 2026 at 18:00 CET');
    expect(formatStart(upcoming, 'de-DE', 'Europe/Berlin')).toBe('Donnerstag, 3. Dezember 2026 um 18:00 MEZ');
    expect(formatStart(upcoming, 'en-US', 'America/New_York')).toBe('Thursday, December 3, 2026 at 12:00 PM EST');
  });

  it('a live appointment shows when it started; none without a time or with a broken one', () => {
    expect(formatStart({ live: true, startedAt: '2026-11-26T09:30:00Z', accessibleFrom: null }, 'en-GB', 'UTC')).toBe('Thursday, 26 November 2026 at 09:30 UTC');
    expect(formatStart({ live: false, startedAt: null, accessibleFrom: null }, 'en-GB')).toBeNull();
    expect(formatStart({ live: false, startedAt: null, accessibleFrom: 'soon' }, 'en-GB')).toBeNull();
  });
});

describe('formatWindow', () => {
  it("shows a self-service appointment's window in the visitor's time zone and language", () => {
    const window = { accessibleFrom: '2026-12-03T17:00:00Z', accessibleTo: '2026-12-04T17:00:00Z' };
    expect(formatWindow(window, 'de-DE', 'Europe/Berlin')).toEqual({
      from: 'Donnerstag, 3. Dezember 2026 um 18:00 MEZ',
      to: 'Freitag, 4. Dezember 2026 um 18:00 MEZ',
    });
    expect(formatWindow({ accessibleFrom: null, accessibleTo: window.accessibleTo }, 'en-GB', 'UTC')).toEqual({
      from: null,
      to: 'Friday, 4 December 2026 at 17:00 UTC',
    });
  });
});
