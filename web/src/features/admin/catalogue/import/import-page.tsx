import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/ui/notifications';
import { useAdminApi } from '../../api/context';
import { errorText, syncErrors } from '../../api/errors';
import { AdminPage, Notice } from '../../components/admin-page';
import type { Category, Manufacturer } from '../types';
import { checkRows, mapColumns, MAX_ROWS, parseCsv, refusedLines, SAMPLE_CSV, syncOperations, type CheckedRow, type ColumnMapping, type ParsedCsv } from './csv-mapping';

const PREVIEW_ROWS = 20;

interface Picked {
  parsed: ParsedCsv;
  mapping: ColumnMapping;
}

const NO_LOOKUPS = { categories: new Map<string, string>(), manufacturers: new Map<string, string>() };

/** CSV import of products: pick a file, see the rows with their problems, import all rows in one sync (all or nothing). */
export function ImportPage() {
  const { t } = useTranslation();
  const api = useAdminApi();
  const inputId = useId();
  const [lookups, setLookups] = useState<{ categories: Map<string, string>; manufacturers: Map<string, string> } | null>(null);
  const [file, setFile] = useState<Picked | null>(null);
  const [refused, setRefused] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void Promise.all([
      api.search<Category>('category', { limit: 500 }),
      api.search<Manufacturer>('product-manufacturer', { limit: 500 }),
    ])
      .then(([categories, manufacturers]) =>
        setLookups({
          categories: new Map(categories.data.filter((c) => c.name).map((c) => [c.name!.toLowerCase(), c.id])),
          manufacturers: new Map(manufacturers.data.filter((m) => m.name).map((m) => [m.name!.toLowerCase(), m.id])),
        }),
      )
      .catch((failure: unknown) => setError(errorText(failure, t('admin.common.failed'))));
  }, [api, t]);

  const pick = async (file: File) => {
    setRefused([]);
    setError(null);
    const parsed = parseCsv(await file.text());
    setFile({ parsed, mapping: mapColumns(parsed.headers) });
  };

  // Rows are checked against the shop's categories and manufacturers as they are now, so a
  // file read before the lookups came is checked again when they come.
  const picked = useMemo(
    () => (file ? { ...file, rows: checkRows(file.parsed, file.mapping, lookups ?? NO_LOOKUPS) } : null),
    [file, lookups],
  );

  const importAll = async () => {
    if (!picked) return;
    setBusy(true);
    setRefused([]);
    try {
      await api.sync(syncOperations(picked.rows));
      notify(t('admin.import.imported', { count: picked.rows.length }), { type: 'success' });
      setFile(null);
    } catch (failure) {
      const lines = refusedLines(syncErrors(failure), picked.rows);
      setRefused(
        lines.length
          ? lines.map((entry) => (entry.line ? t('admin.import.refusedRow', { line: entry.line, field: entry.column, message: entry.message }) : entry.message))
          : [errorText(failure, t('admin.common.failed'))],
      );
    } finally {
      setBusy(false);
    }
  };

  const problemText = (row: CheckedRow) =>
    row.problems.map((problem) => (t as unknown as (key: string, values: Record<string, string>) => string)(`admin.import.${problem.key}`, problem.values));
  const withProblems = picked?.rows.filter((row) => row.problems.length > 0) ?? [];
  const blocking: string[] = [];
  if (picked) {
    if (picked.mapping.missing.length) blocking.push(t('admin.import.missingColumns', { columns: picked.mapping.missing.join(', ') }));
    if (picked.rows.length === 0) blocking.push(t('admin.import.empty'));
    if (picked.rows.length > MAX_ROWS) blocking.push(t('admin.import.tooMany', { max: String(MAX_ROWS) }));
    for (const parseError of picked.parsed.errors) blocking.push(t('admin.import.parseError', { line: parseError.line, message: parseError.message }));
    if (withProblems.length) blocking.push(t('admin.import.rowsWithErrors', { count: withProblems.length }));
  }
  // The preview: the first rows, and every row with a problem after them.
  const shown = picked ? [...picked.rows.slice(0, PREVIEW_ROWS), ...withProblems.filter((row) => row.line - 2 >= PREVIEW_ROWS)] : [];
  const columns = picked ? Object.entries(picked.mapping.fields) : [];

  return (
    <AdminPage title={t('admin.import.title')}>
      <p>{t('admin.import.intro')}</p>
      <p>
        <a href={`data:text/csv;charset=utf-8,${encodeURIComponent(SAMPLE_CSV)}`} download="products-sample.csv">
          {t('admin.import.sample')}
        </a>
      </p>
      {error && <Notice>{error}</Notice>}
      <div className="field">
        <label htmlFor={inputId}>{t('admin.import.file')}</label>
        <input
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          disabled={!lookups}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void pick(file);
          }}
        />
      </div>
      {refused.length > 0 && (
        <Notice>
          <p>{t('admin.import.refused')}</p>
          <ul>
            {refused.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </Notice>
      )}
      {picked && (
        <section aria-labelledby={`${inputId}-preview`}>
          <h2 id={`${inputId}-preview`}>{t('admin.import.preview')}</h2>
          {blocking.length > 0 && (
            <Notice>
              {blocking.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </Notice>
          )}
          {picked.mapping.unknown.length > 0 && <p className="muted">{t('admin.import.unknownColumns', { columns: picked.mapping.unknown.join(', ') })}</p>}
          <p className="muted">{t('admin.import.previewHint', { count: Math.min(PREVIEW_ROWS, picked.rows.length), total: picked.rows.length })}</p>
          <div style={{ overflowX: 'auto' }}>
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin.import.row')}</th>
                  {columns.map(([header, field]) => (
                    <th scope="col" key={header}>
                      {header}
                      {header !== field && <span className="muted"> → {field}</span>}
                    </th>
                  ))}
                  <th scope="col">{t('admin.import.rowErrors')}</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((row) => (
                  <tr key={row.line} aria-invalid={row.problems.length > 0}>
                    <th scope="row">{row.line}</th>
                    {columns.map(([header, field]) => (
                      <td key={header}>{row.values[field]}</td>
                    ))}
                    <td>
                      {row.problems.length ? (
                        problemText(row).map((text) => (
                          <p key={text} className="admin-row-error">
                            {text}
                          </p>
                        ))
                      ) : (
                        t('admin.import.ok')
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="admin-toolbar">
            <button type="button" className="button button--primary" disabled={busy || !lookups || blocking.length > 0} onClick={() => void importAll()}>
              {busy ? t('admin.import.importing') : t('admin.import.import', { count: picked.rows.length })}
            </button>
          </div>
        </section>
      )}
    </AdminPage>
  );
}
