import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { csvOf } from './csv';

describe('csvOf', () => {
  it('escapes every cell a spreadsheet would run as a formula', () => {
    const cells = ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1', '=HYPERLINK("http://x","y")\nsecond line'];
    const read = Papa.parse<string[]>(csvOf([cells])).data;
    expect(read).toEqual([cells.map((cell) => `'${cell}`)]);
  });

  it('leaves plain text, numbers and the header alone, and quotes as CSV needs', () => {
    const csv = csvOf([['Chair, "oak"', -3, 0.5, 'a-b']], ['name', 'n', 'share', 'dash']);
    expect(csv).toBe('name,n,share,dash\r\n"Chair, ""oak""",-3,0.5,a-b');
  });
});
