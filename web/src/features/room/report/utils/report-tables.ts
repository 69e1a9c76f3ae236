import { csvOf, type CsvCell } from '@/lib/csv';
import { formatDateTime, formatNumber, formatPercent, formatPrice, pageLocale } from '@/lib/format';
import type { ReactionsByKind, SessionReport } from '../api/report';

/** A cell: text, a number, an amount of money, a time or a share (0..1). */
export type Cell =
  | { kind: 'text'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'money'; value: number; currency: string }
  | { kind: 'time'; value: string }
  | { kind: 'share'; value: number };

export type TableId = 'summary' | 'viewers' | 'attendance' | 'reactions' | 'cartValue' | 'polls' | 'chat' | 'likes' | 'carts' | 'orders';

/** The reaction kinds in the order the report lists them (keys under `report.reactions`). */
export const REACTION_KINDS: (keyof ReactionsByKind)[] = ['heart', 'clap', 'laugh', 'wow', 'fire'];

/** One table of the report, as the page shows it and the CSV holds it. */
export interface ReportTable {
  id: TableId;
  /** Keys under `report.columns`. */
  columns: string[];
  rows: Cell[][];
}

const text = (value: string): Cell => ({ kind: 'text', value });
const number = (value: number): Cell => ({ kind: 'number', value });
const time = (value: string): Cell => ({ kind: 'time', value });

/** The report's tables, in page order. `yes`/`no` name the after-session flag. */
export function reportTables(
  report: SessionReport,
  words: { yes: string; no: string; guest: string; reaction: (kind: keyof ReactionsByKind) => string },
): ReportTable[] {
  const live = report.live;
  const summary: Cell[][] = [
    [text('attendees'), number(report.attendees)],
    [text('connectedNow'), number(live?.connectedNow ?? 0)],
    [text('peakViewers'), number(live?.viewers.peak ?? 0)],
    [text('averageViewers'), number(live?.viewers.average ?? 0)],
    [text('reactions'), number(live?.reactions.total ?? 0)],
    [text('chatMessages'), number(live?.chatMessages ?? 0)],
    [text('orders'), number(report.orders.length)],
    [text('buyers'), number(report.conversion.buyers)],
    [text('conversion'), { kind: 'share', value: report.conversion.rate }],
    ...report.revenue.map((r): Cell[] => [text('revenue'), { kind: 'money', value: r.amount, currency: r.currency }]),
  ];
  return [
    { id: 'summary', columns: ['metric', 'value'], rows: summary },
    {
      id: 'viewers',
      columns: ['at', 'joinedNow', 'connected'],
      rows: (live?.attendance ?? []).map((p) => [time(p.at), number(p.joined), number(p.connected)]),
    },
    { id: 'attendance', columns: ['minute', 'joined', 'joinedTotal'], rows: report.attendance.map((m) => [time(m.minute), number(m.joined), number(m.joinedTotal)]) },
    {
      id: 'reactions',
      columns: ['reaction', 'count'],
      rows: live && live.reactions.total > 0 ? REACTION_KINDS.map((kind) => [text(words.reaction(kind)), number(live.reactions.byKind[kind])]) : [],
    },
    { id: 'cartValue', columns: ['at', 'cartValue'], rows: (live?.cartValue ?? []).map((s) => [time(s.at), number(s.value)]) },
    {
      id: 'polls',
      columns: ['question', 'answer', 'votes', 'voters'],
      rows: (live?.polls ?? []).flatMap((poll) => poll.answers.map((a) => [text(poll.question), text(a.text), number(a.votes), number(poll.voters)])),
    },
    { id: 'chat', columns: ['minute', 'messages'], rows: (report.live?.chatPerMinute ?? []).map((m) => [time(m.minute), number(m.messages)]) },
    { id: 'likes', columns: ['product', 'likes', 'wishlist'], rows: report.likes.map((l) => [text(l.name), number(l.likes), number(l.wishlist)]) },
    {
      id: 'carts',
      columns: ['product', 'quantity', 'attendees', 'ordered'],
      rows: report.carts.map((c) => [text(c.name), number(c.quantity), number(c.attendees), number(c.ordered)]),
    },
    {
      id: 'orders',
      columns: ['orderNumber', 'orderedAt', 'attendee', 'amount', 'afterSession'],
      rows: report.orders.map((o) => [
        text(o.orderNumber),
        time(o.orderedAt),
        text(o.attendeeName ?? words.guest),
        { kind: 'money', value: o.amountTotal, currency: o.currency },
        text(o.afterSession ? words.yes : words.no),
      ]),
    },
  ];
}

/** A cell as the page shows it, in `locale` (the page's by default) and the viewer's zone (or `timeZone`). */
export function formatCell(cell: Cell, locale: string = pageLocale(), timeZone?: string): string {
  switch (cell.kind) {
    case 'number':
      return formatNumber(cell.value, locale);
    case 'money':
      return formatPrice(cell.value, locale, cell.currency);
    case 'share':
      return formatPercent(cell.value, locale);
    case 'time':
      return formatDateTime(cell.value, { locale, timeZone });
    default:
      return cell.value;
  }
}

/** A cell as the CSV holds it: plain numbers (a dot for decimals) and ISO times, so spreadsheets read them. */
function csvValue(cell: Cell): CsvCell {
  switch (cell.kind) {
    case 'money':
      return `${cell.value.toFixed(2)} ${cell.currency}`;
    case 'share':
      return Number(cell.value.toFixed(4));
    default:
      return cell.value;
  }
}

/**
 * One CSV file with a section per table: the table's title, its header row, its rows,
 * and an empty line. `label(key)` gives a column's or a metric's text, `title(id)` a table's.
 * Names, product names and poll texts come from attendees and merchants: `csvOf` escapes
 * the cells a spreadsheet would run as formulas.
 */
export function reportCsv(tables: ReportTable[], title: (id: TableId) => string, label: (key: string) => string): string {
  return tables
    .map((table) => {
      const rows = table.rows.map((row) => row.map((cell, i) => (table.id === 'summary' && i === 0 ? label(String(cell.value)) : csvValue(cell))));
      return `${csvOf([[title(table.id)]])}\r\n${csvOf(rows, table.columns.map(label))}\r\n`;
    })
    .join('\r\n');
}

/** Seconds since 1970 of each minute, for the charts' time axis. */
export function minutesToSeconds(minutes: string[]): number[] {
  return minutes.map((m) => Math.floor(Date.parse(m) / 1000));
}

/** Seconds since 1970 of RFC 3339 times, for the charts' time axis. */
export function timesToSeconds(times: string[]): number[] {
  return times.map((at) => Math.floor(Date.parse(at) / 1000));
}
