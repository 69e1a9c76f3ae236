import Papa from 'papaparse';

/**
 * Cells a spreadsheet would run as a formula: those starting with `=`, `+`, `-`, `@`, a tab
 * or a carriage return. papaparse's `escapeFormulae: true` has the same characters but
 * `/^[=+\-@\t\r].*$/`, which misses a cell with a line break after the formula.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A CSV cell: text, or a number (numbers are never escaped: `-3` stays a number). */
export type CsvCell = string | number;

/**
 * Rows as CSV, through papaparse with `escapeFormulae`: a formula-leading text cell (an
 * attendee named `=HYPERLINK(…)`) gets a leading `'` and is written as text, so opening
 * the file runs nothing. Every CSV the product writes goes through here (ESLint forbids
 * `Papa.unparse` elsewhere).
 */
export function csvOf(rows: CsvCell[][], fields?: string[]): string {
  const config = { escapeFormulae: FORMULA_START, newline: '\r\n' };
  return fields ? Papa.unparse({ fields, data: rows }, config) : Papa.unparse(rows, config);
}
