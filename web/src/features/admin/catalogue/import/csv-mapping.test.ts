import { describe, expect, it } from 'vitest';
import { checkRows, mapColumns, parseCsv, refusedLines, SAMPLE_CSV, syncOperations, SYNC_KEY } from './csv-mapping';

const lookups = {
  categories: new Map([
    ['tea', 'c1'],
    ['gifts', 'c2'],
  ]),
  manufacturers: new Map([['leafworks', 'm1']]),
};

function check(text: string) {
  const parsed = parseCsv(text);
  const mapping = mapColumns(parsed.headers);
  return { parsed, mapping, rows: checkRows(parsed, mapping, lookups) };
}

describe('CSV columns', () => {
  it('maps headers regardless of case and separators, with aliases, and names unknown and missing ones', () => {
    const mapping = mapColumns(['Product Number', 'NAME', 'price', 'colour', 'Name-DE']);
    expect(mapping.fields).toEqual({ 'Product Number': 'productNumber', NAME: 'name', price: 'price_gross', 'Name-DE': 'name_de' });
    expect(mapping.unknown).toEqual(['colour']);
    expect(mapColumns(['name']).missing).toEqual(['productNumber', 'price_gross']);
  });
});

describe('CSV rows', () => {
  it('turns the sample into product payloads with German texts, list prices, categories', () => {
    const { parsed, mapping, rows } = check(SAMPLE_CSV);
    expect(parsed.errors).toEqual([]);
    expect(mapping.missing).toEqual([]);
    expect(rows.map((row) => row.problems)).toEqual([[], []]);
    expect(rows[0]).toMatchObject({
      line: 2,
      payload: {
        productNumber: 'TEA-100',
        name: 'Green tea',
        stock: 120,
        active: true,
        price: [{ gross: 4.9, net: null, listPrice: { gross: 5.9, net: null } }],
        categories: [{ id: 'c1' }],
        translations: { 'de-DE': { name: 'Grüner Tee', description: 'Loser grüner Tee.' } },
      },
    });
    // A quoted field keeps its comma; several categories split at |.
    expect(rows[1]?.payload).toMatchObject({ description: 'Strong, malty black tea.', price: [{ gross: 5.5, net: 4.62, listPrice: null }], categories: [{ id: 'c1' }, { id: 'c2' }] });
    expect(syncOperations(rows)[SYNC_KEY]).toMatchObject({ entity: 'product', action: 'upsert' });
    expect(syncOperations(rows)[SYNC_KEY]?.payload).toHaveLength(2);
  });

  it('names every problem of a row with its line, before anything is sent', () => {
    const { rows } = check(
      [
        'productNumber,name,price_gross,list_price_gross,stock,active,manufacturer,categories',
        'A-1,Fine,"1,50",,3,no,LeafWorks,Tea',
        ',No number,-2,,1.5,maybe,Nobody,Tea|Nowhere',
        'A-1,Again,3,2,,,,',
      ].join('\n'),
    );
    expect(rows.map((row) => row.line)).toEqual([2, 3, 4]);
    expect(rows[0]?.problems).toEqual([]);
    expect(rows[0]?.payload).toMatchObject({ price: [{ gross: 1.5 }], active: false, manufacturerId: 'm1' });
    expect(rows[1]?.problems.map((p) => [p.field, p.key])).toEqual([
      ['productNumber', 'required'],
      ['price_gross', 'notNumber'],
      ['stock', 'notInteger'],
      ['active', 'notBoolean'],
      ['manufacturer', 'unknownManufacturer'],
      ['categories', 'unknownCategory'],
    ]);
    expect(rows[1]?.problems.find((p) => p.key === 'unknownCategory')?.values.name).toBe('Nowhere');
    expect(rows[2]?.problems.map((p) => [p.field, p.key])).toEqual([
      ['list_price_gross', 'listBelowPrice'],
      ['productNumber', 'duplicateNumber'],
    ]);
  });

  it('reports broken quoting with its line', () => {
    const { parsed } = check('productNumber,name,price_gross\nA-1,"unclosed,3\n');
    expect(parsed.errors.length).toBeGreaterThan(0);
    expect(parsed.errors[0]?.line).toBe(2);
  });

  it('maps a refused sync record back to its file line and column', () => {
    const { rows } = check(SAMPLE_CSV);
    expect(
      refusedLines(
        [
          { operation: SYNC_KEY, index: 1, field: 'productNumber', message: 'taken' },
          { operation: SYNC_KEY, index: 0, field: 'price/0/listPrice/gross', message: 'low' },
          { operation: SYNC_KEY, index: 0, field: 'translations/de-DE/name', message: 'long' },
        ],
        rows,
      ),
    ).toEqual([
      { line: 3, column: 'productNumber', message: 'taken' },
      { line: 2, column: 'list_price_gross', message: 'low' },
      { line: 2, column: 'name_de', message: 'long' },
    ]);
  });
});

describe('the documented sample', () => {
  it('is the file in docs/ that the page offers', async () => {
    const { readFileSync } = await import('node:fs');
    const path = await import('node:path');
    const file = path.resolve(__dirname, '../../../../../../docs/admin-product-import.csv');
    expect(readFileSync(file, 'utf8')).toBe(SAMPLE_CSV);
  });
});
