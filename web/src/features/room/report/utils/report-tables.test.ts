import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { SessionReport } from '../api/report';
import { formatCell, minutesToSeconds, reportCsv, reportTables } from './report-tables';

const report: SessionReport = {
  appointment: { id: 'a'.repeat(32), name: 'Demo', startedAt: '2026-11-26T10:00:00Z', endedAt: null },
  window: { from: '2026-11-26T10:00:00Z', to: null, ordersUntil: null, afterSessionHours: 48 },
  attendees: 2,
  attendance: [
    { minute: '2026-11-26T10:00:00Z', joined: 1, joinedTotal: 1 },
    { minute: '2026-11-26T10:02:00Z', joined: 1, joinedTotal: 2 },
  ],
  likes: [{ productId: 'p'.repeat(32), name: 'Chair, "oak"', likes: 2, wishlist: 1 }],
  carts: [{ productId: 'p'.repeat(32), name: 'Chair, "oak"', quantity: 3, attendees: 2, ordered: 1 }],
  orders: [
    { orderNumber: '10001', orderedAt: '2026-11-26T10:05:00Z', amountTotal: 59.9, currency: 'EUR', attendeeId: 'b'.repeat(32), attendeeName: null, afterSession: false },
  ],
  revenue: [{ currency: 'EUR', amount: 59.9 }],
  conversion: { attendees: 2, buyers: 1, rate: 0.5 },
  live: {
    connectedNow: 1,
    joinedNow: 2,
    viewers: { peak: 2, average: 1.5 },
    attendance: [
      { at: '2026-11-26T10:00:05Z', joined: 1, connected: 1 },
      { at: '2026-11-26T10:02:10Z', joined: 2, connected: 2 },
      { at: '2026-11-26T10:04:00Z', joined: 2, connected: 1 },
    ],
    chatMessages: 4,
    chatPerMinute: [{ minute: '2026-11-26T10:01:00Z', messages: 4 }],
    reactions: { total: 5, byKind: { heart: 3, clap: 2, laugh: 0, wow: 0, fire: 0 }, perMinute: [{ minute: '2026-11-26T10:03:00Z', reactions: 5 }] },
    cartValue: [{ at: '2026-11-26T10:03:30Z', value: 89.85 }],
    polls: [
      {
        pollId: 'c'.repeat(32),
        question: 'Which colour?',
        multiple: false,
        status: 'closed',
        voters: 2,
        answers: [
          { answerId: 'd'.repeat(32), text: 'Red', votes: 2 },
          { answerId: 'e'.repeat(32), text: 'Blue', votes: 0 },
        ],
      },
    ],
  },
  generatedAt: '2026-11-26T10:06:00Z',
};

const words = { yes: 'yes', no: 'no', guest: 'Guest', reaction: (kind: string) => `R:${kind}` };

function at<T>(items: T[] | undefined, index: number): T {
  const item = items?.[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
}

describe('report tables', () => {
  it('holds every figure of the report', () => {
    const tables = reportTables(report, words);
    expect(tables.map((t) => t.id)).toEqual(['summary', 'viewers', 'attendance', 'reactions', 'cartValue', 'polls', 'chat', 'likes', 'carts', 'orders']);
    const summary = Object.fromEntries(at(tables, 0).rows.map((row) => [at(row, 0).value, at(row, 1)]));
    expect(summary).toMatchObject({
      attendees: { value: 2 },
      connectedNow: { value: 1 },
      peakViewers: { value: 2 },
      averageViewers: { value: 1.5 },
      reactions: { value: 5 },
      chatMessages: { value: 4 },
      orders: { value: 1 },
      buyers: { value: 1 },
      conversion: { kind: 'share', value: 0.5 },
      revenue: { kind: 'money', value: 59.9, currency: 'EUR' },
    });
    expect(at(at(at(tables, 9).rows, 0), 2)).toEqual({ kind: 'text', value: 'Guest' });
    expect(at(tables, 1).rows.map((row) => row.map((cell) => cell.value))).toEqual([
      ['2026-11-26T10:00:05Z', 1, 1],
      ['2026-11-26T10:02:10Z', 2, 2],
      ['2026-11-26T10:04:00Z', 2, 1],
    ]);
    expect(at(tables, 3).rows.map((row) => row.map((cell) => cell.value))).toEqual([
      ['R:heart', 3],
      ['R:clap', 2],
      ['R:laugh', 0],
      ['R:wow', 0],
      ['R:fire', 0],
    ]);
    expect(at(tables, 4).rows).toEqual([[{ kind: 'time', value: '2026-11-26T10:03:30Z' }, { kind: 'number', value: 89.85 }]]);
    expect(at(tables, 5).rows.map((row) => row.map((cell) => cell.value))).toEqual([
      ['Which colour?', 'Red', 2, 2],
      ['Which colour?', 'Blue', 0, 2],
    ]);
    expect(at(at(at(tables, 8).rows, 0), 3)).toEqual({ kind: 'number', value: 1 });
  });

  it('has no chat table rows and zero live figures when the hub did not answer', () => {
    const tables = reportTables({ ...report, live: null }, words);
    for (const live of [1, 3, 4, 5, 6]) expect(at(tables, live).rows).toEqual([]);
    expect(at(at(at(tables, 0).rows, 1), 1)).toEqual({ kind: 'number', value: 0 });
  });

  it('writes one CSV with a section per table that a CSV reader reads back', () => {
    const csv = reportCsv(reportTables(report, words), (id) => `T:${id}`, (key) => `L:${key}`);
    const sections = csv.split('\r\n\r\n');
    expect(sections).toHaveLength(10);
    const likes = Papa.parse<string[]>(at(sections, 7).trim()).data;
    expect(likes).toEqual([['T:likes'], ['L:product', 'L:likes', 'L:wishlist'], ['Chair, "oak"', '2', '1']]);
    const summary = Papa.parse<string[]>(at(sections, 0).trim()).data;
    expect(summary).toContainEqual(['L:conversion', '0.5']);
    expect(summary).toContainEqual(['L:revenue', '59.90 EUR']);
    expect(summary).toContainEqual(['L:peakViewers', '2']);
    const polls = Papa.parse<string[]>(at(sections, 5).trim()).data;
    expect(polls).toEqual([
      ['T:polls'],
      ['L:question', 'L:answer', 'L:votes', 'L:voters'],
      ['Which colour?', 'Red', '2', '2'],
      ['Which colour?', 'Blue', '0', '2'],
    ]);
  });

  it('writes names, products and poll texts that start a formula as text, not as a formula', () => {
    const hostile: SessionReport = {
      ...report,
      likes: [{ productId: 'p'.repeat(32), name: '+1+cmd|calc', likes: 1, wishlist: 0 }],
      orders: [{ ...at(report.orders, 0), attendeeName: '=HYPERLINK("http://x","y")' }],
      live: report.live && {
        ...report.live,
        polls: [{ ...at(report.live.polls, 0), question: '@SUM(A1:A2)', answers: [{ answerId: 'd'.repeat(32), text: '-2+3', votes: -1 }] }],
      },
    };
    const csv = reportCsv(reportTables(hostile, words), (id) => `T:${id}`, (key) => `L:${key}`);
    const sections = csv.split('\r\n\r\n');
    const orders = Papa.parse<string[]>(at(sections, 9).trim()).data;
    expect(at(orders, 2)).toEqual(['10001', '2026-11-26T10:05:00Z', `'=HYPERLINK("http://x","y")`, '59.90 EUR', 'no']);
    expect(at(Papa.parse<string[]>(at(sections, 7).trim()).data, 2)).toEqual(["'+1+cmd|calc", '1', '0']);
    // Numbers stay numbers, even negative ones.
    expect(at(Papa.parse<string[]>(at(sections, 5).trim()).data, 2)).toEqual(["'@SUM(A1:A2)", "'-2+3", '-1', '2']);
    // No line of the file starts a cell with a formula character.
    expect(csv).not.toMatch(/(^|[,\n"])[=+@]/);
  });

  it('turns minutes into seconds for the time axis', () => {
    expect(minutesToSeconds(['1970-01-01T00:01:00Z'])).toEqual([60]);
  });
});

describe('formatCell', () => {
  it('shows a German report in German: dd.mm.yyyy, a decimal comma, euros after the amount', () => {
    expect(formatCell({ kind: 'time', value: '2026-11-28T17:05:00Z' }, 'de-DE', 'UTC')).toBe('28.11.2026, 17:05');
    expect(formatCell({ kind: 'number', value: 1234.5 }, 'de-DE')).toBe('1.234,5');
    expect(formatCell({ kind: 'money', value: 1234.5, currency: 'EUR' }, 'de-DE')).toBe('1.234,50\u00a0€');
    expect(formatCell({ kind: 'share', value: 0.255 }, 'de-DE')).toBe('25,5\u00a0%');
    expect(formatCell({ kind: 'text', value: 'Ada' }, 'de-DE')).toBe('Ada');
  });

  it('shows an English report in English', () => {
    expect(formatCell({ kind: 'time', value: '2026-11-28T17:05:00Z' }, 'en-US', 'UTC')).toMatch(/^Nov 28, 2026, 5:05\sPM$/);
    expect(formatCell({ kind: 'money', value: 1234.5, currency: 'EUR' }, 'en-US')).toBe('€1,234.50');
  });
});
