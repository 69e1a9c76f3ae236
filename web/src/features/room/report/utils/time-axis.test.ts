import { describe, expect, it } from 'vitest';
import { timeFormats, timeTickLabels } from './time-axis';

const formats = timeFormats('en-GB');
// 2026-11-26T10:00:00Z, in UTC for the test.
const start = Date.UTC(2026, 10, 26, 10, 0, 0) / 1000;

describe('timeTickLabels', () => {
  it('names ticks less than a minute apart to the second, so a short session repeats no time', () => {
    const ticks = [0, 10, 20, 30, 40, 50, 60].map((s) => start + s);
    const labels = timeTickLabels(ticks, 10, 70, formats);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels.every((label) => /^\d\d:\d\d:\d\d$/.test(label))).toBe(true);
  });

  it('names ticks a minute or more apart to the minute, and with the day over more than a day', () => {
    const minutes = timeTickLabels([0, 120, 240].map((s) => start + s), 120, 300, formats);
    expect(minutes.every((label) => /^\d\d:\d\d$/.test(label))).toBe(true);
    expect(new Set(minutes).size).toBe(3);
    const days = timeTickLabels([0, 86400, 172800].map((s) => start + s), 86400, 200000, formats);
    expect(new Set(days).size).toBe(3);
  });

  it('never repeats the label before it', () => {
    const same = { minute: () => '10:00', second: () => '10:00:00', day: () => '26/11, 10:00' };
    expect(timeTickLabels([start, start + 60, start + 120], 60, 120, same)).toEqual(['10:00', '', '']);
  });
});

describe('timeFormats', () => {
  it('names times in German the German way, day before month', () => {
    const german = timeFormats('de-DE', 'UTC');
    expect(german.minute(start)).toBe('10:00');
    expect(german.second(start + 5)).toBe('10:00:05');
    expect(german.day(start)).toBe('26.11., 10:00');
  });
});
