import Papa from 'papaparse';
import type { SyncOperation } from '../../api/client';
import type { SyncRecordError } from '../../api/errors';

/**
 * The product CSV (docs/admin-product-import.csv is a sample; the columns are documented in
 * docs/admin-product-import.md): one product per line, a header line naming the columns.
 * Parsing is papaparse's; this module maps columns to fields, checks every row before
 * anything is sent, and makes ONE sync operation of all rows.
 */

/** The fields a column can feed. */
export const FIELDS = [
  'productNumber',
  'name',
  'name_de',
  'description',
  'description_de',
  'price_gross',
  'price_net',
  'list_price_gross',
  'list_price_net',
  'stock',
  'active',
  'manufacturer',
  'categories',
] as const;
export type CsvField = (typeof FIELDS)[number];

export const REQUIRED: CsvField[] = ['productNumber', 'name', 'price_gross'];

/** At most this many rows in one import (one request, one transaction). */
export const MAX_ROWS = 1000;

/** A column header as a key: lower case, letters and digits only (`Price gross` = `price_gross` = `priceGross`). */
const normalise = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

const ALIASES: Record<string, CsvField> = {
  ...Object.fromEntries(FIELDS.map((field) => [normalise(field), field])),
  number: 'productNumber',
  sku: 'productNumber',
  price: 'price_gross',
  listprice: 'list_price_gross',
  namede: 'name_de',
  descriptionde: 'description_de',
  category: 'categories',
};

export interface ColumnMapping {
  /** Header → field, for the columns that are read. */
  fields: Record<string, CsvField>;
  unknown: string[];
  missing: CsvField[];
}

export function mapColumns(headers: string[]): ColumnMapping {
  const fields: Record<string, CsvField> = {};
  const unknown: string[] = [];
  for (const header of headers) {
    const field = ALIASES[normalise(header)];
    if (field && !Object.values(fields).includes(field)) fields[header] = field;
    else unknown.push(header);
  }
  const mapped = new Set(Object.values(fields));
  return { fields, unknown, missing: REQUIRED.filter((field) => !mapped.has(field)) };
}

/** A problem of a row, as an i18n key under `admin.import.` and its values. */
export interface RowProblem {
  field: CsvField | null;
  key: 'required' | 'notNumber' | 'notInteger' | 'notBoolean' | 'duplicateNumber' | 'unknownCategory' | 'unknownManufacturer' | 'listBelowPrice';
  values: Record<string, string>;
}

export interface CheckedRow {
  /** The line in the file (the header is line 1). */
  line: number;
  values: Partial<Record<CsvField, string>>;
  problems: RowProblem[];
  payload: Record<string, unknown>;
}

/** Names of categories and manufacturers the shop has (lower case → id), to resolve the columns. */
export interface Lookups {
  categories: Map<string, string>;
  manufacturers: Map<string, string>;
}

export interface ParsedCsv {
  headers: string[];
  rows: Record<string, string>[];
  /** Papaparse's errors, by line. */
  errors: { line: number; message: string }[];
}

export function parseCsv(text: string): ParsedCsv {
  const result = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header) => header.trim(),
  });
  return {
    headers: result.meta.fields ?? [],
    rows: result.data,
    // `row` counts data rows from 0 (the header is line 1), except in quote errors, where
    // papaparse counts the header as row 0.
    errors: result.errors.map((error) => ({ line: (error.row ?? 0) + (error.type === 'Quotes' ? 1 : 2), message: error.message })),
  };
}

const amount = (text: string) => {
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) && value >= 0 ? value : null;
};
const BOOLEANS: Record<string, boolean> = { '1': true, true: true, yes: true, ja: true, '0': false, false: false, no: false, nein: false };

/** Checks every row and builds its product payload; rows with problems are not to be imported. */
export function checkRows(parsed: ParsedCsv, mapping: ColumnMapping, lookups: Lookups): CheckedRow[] {
  const seen = new Map<string, number>();
  return parsed.rows.map((row, n) => {
    const line = n + 2;
    const values: Partial<Record<CsvField, string>> = {};
    for (const [header, field] of Object.entries(mapping.fields)) values[field] = (row[header] ?? '').trim();
    const problems: RowProblem[] = [];
    const problem = (field: CsvField | null, key: RowProblem['key'], extra: Record<string, string> = {}) =>
      problems.push({ field, key, values: { field: field ?? '', ...extra } });

    for (const field of REQUIRED) if (!values[field]) problem(field, 'required');
    const prices: Partial<Record<CsvField, number | null>> = {};
    for (const field of ['price_gross', 'price_net', 'list_price_gross', 'list_price_net'] as const) {
      if (!values[field]) continue;
      prices[field] = amount(values[field]);
      if (prices[field] === null) problem(field, 'notNumber');
    }
    if (prices.list_price_gross != null && prices.price_gross != null && prices.list_price_gross < prices.price_gross) problem('list_price_gross', 'listBelowPrice');
    let stock = 0;
    if (values.stock) {
      stock = Number(values.stock);
      if (!Number.isInteger(stock) || stock < 0) problem('stock', 'notInteger');
    }
    let active = true;
    if (values.active) {
      const parsed = BOOLEANS[values.active.toLowerCase()];
      if (parsed === undefined) problem('active', 'notBoolean');
      else active = parsed;
    }
    let manufacturerId: string | null = null;
    if (values.manufacturer) {
      manufacturerId = lookups.manufacturers.get(values.manufacturer.toLowerCase()) ?? null;
      if (!manufacturerId) problem('manufacturer', 'unknownManufacturer', { name: values.manufacturer });
    }
    const categories: { id: string }[] = [];
    for (const name of (values.categories ?? '').split('|').map((c) => c.trim()).filter(Boolean)) {
      const id = lookups.categories.get(name.toLowerCase());
      if (id) categories.push({ id });
      else problem('categories', 'unknownCategory', { name });
    }
    const number = values.productNumber ?? '';
    if (number) {
      const key = number.toLowerCase();
      if (seen.has(key)) problem('productNumber', 'duplicateNumber', { number });
      else seen.set(key, line);
    }

    const german = Object.fromEntries(
      [['name', values.name_de], ['description', values.description_de]].filter(([, text]) => text) as [string, string][],
    );
    const payload: Record<string, unknown> = {
      productNumber: number,
      name: values.name ?? '',
      ...(values.description ? { description: values.description } : {}),
      active,
      stock,
      price: [
        {
          gross: prices.price_gross ?? null,
          net: prices.price_net ?? null,
          linked: true,
          listPrice: prices.list_price_gross != null ? { gross: prices.list_price_gross, net: prices.list_price_net ?? null, linked: true } : null,
        },
      ],
      ...(manufacturerId ? { manufacturerId } : {}),
      ...(categories.length ? { categories } : {}),
      ...(Object.keys(german).length ? { translations: { 'de-DE': german } } : {}),
    };
    return { line, values, problems, payload };
  });
}

/** The key of the import's one sync operation (the API names it in a refusal's pointer). */
export const SYNC_KEY = 'import-products';

export function syncOperations(rows: CheckedRow[]): Record<string, SyncOperation> {
  return { [SYNC_KEY]: { entity: 'product', action: 'upsert', payload: rows.map((row) => row.payload) } };
}

/** The CSV column a refused payload field came from (`price/0/listPrice/gross` → `list_price_gross`). */
export function columnOfField(field: string): string {
  const path = field.replace(/^translations\/[^/]+\//, (prefix) => (prefix.includes('de-DE') ? 'de:' : ''));
  const known: Record<string, string> = {
    productNumber: 'productNumber',
    name: 'name',
    description: 'description',
    'de:name': 'name_de',
    'de:description': 'description_de',
    'price/0/gross': 'price_gross',
    'price/0/net': 'price_net',
    'price/0/listPrice/gross': 'list_price_gross',
    'price/0/listPrice/net': 'list_price_net',
    price: 'price_gross',
    stock: 'stock',
    active: 'active',
    manufacturerId: 'manufacturer',
  };
  if (known[path]) return known[path];
  if (path.startsWith('categories')) return 'categories';
  return field || '–';
}

/** The file lines and columns a refused sync names. */
export function refusedLines(errors: SyncRecordError[], rows: CheckedRow[]): { line: number | null; column: string; message: string }[] {
  return errors.map((error) => ({
    line: error.operation === SYNC_KEY && error.index !== null ? (rows[error.index]?.line ?? null) : null,
    column: columnOfField(error.field),
    message: error.message,
  }));
}

/** A sample file (the same as docs/admin-product-import.csv). */
export const SAMPLE_CSV = `productNumber,name,name_de,description,description_de,price_gross,price_net,list_price_gross,list_price_net,stock,active,manufacturer,categories
TEA-100,Green tea,Grüner Tee,Loose leaf green tea.,Loser grüner Tee.,4.90,,5.90,,120,1,,Tea
TEA-101,Black tea,Schwarzer Tee,"Strong, malty black tea.","Kräftiger, malziger Schwarztee.",5.50,4.62,,,80,yes,,Tea|Gifts
`;
