import { formatDateTime, formatTime, pageLocale } from '@/lib/format';

/** Steps between the time axis's ticks, in seconds: whole seconds, minutes, hours and days, so a tick falls on a time its label can name. */
export const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800];

/** The formats of a time axis (the page's locale): to the minute, to the second, with the day. */
export interface TimeFormats {
  minute: (seconds: number) => string;
  second: (seconds: number) => string;
  day: (seconds: number) => string;
}

/**
 * The time axis's labels for `ticks` (seconds since 1970), `step` seconds apart, on a chart spanning
 * `span` seconds: to the second when the ticks are less than a minute apart, with the day when
 * the chart spans more than a day, else to the minute. No label repeats the one before it (a short
 * session would otherwise show the same minute along the whole axis).
 */
export function timeTickLabels(ticks: number[], step: number, span: number, formats: TimeFormats): string[] {
  const format = span > 86400 ? formats.day : step < 60 ? formats.second : formats.minute;
  const labels = ticks.map(format);
  return labels.map((label, i) => (i > 0 && label === labels[i - 1] ? '' : label));
}

/** The formats of a time axis in `locale` (the page's by default), through the app's one formatter. */
export function timeFormats(locale: string = pageLocale(), timeZone?: string): TimeFormats {
  const at = (seconds: number) => seconds * 1000;
  return {
    minute: (seconds) => formatTime(at(seconds), { locale, timeZone }),
    second: (seconds) => formatTime(at(seconds), { locale, timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit' }),
    day: (seconds) => formatDateTime(at(seconds), { locale, timeZone, day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' }),
  };
}
