import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminApi } from '../api/context';

interface ProductHit {
  id: string;
  name: string | null;
  productNumber: string;
}

/** Names of products by id, loaded once per set of ids. */
export function useProductNames(ids: string[]): Record<string, string> {
  const api = useAdminApi();
  const [names, setNames] = useState<Record<string, string>>({});
  const key = ids.join(',');
  useEffect(() => {
    const missing = key ? key.split(',') : [];
    if (!missing.length) return;
    api
      .search<ProductHit>('product', { ids: missing, limit: missing.length })
      .then((found) => setNames((before) => ({ ...before, ...Object.fromEntries(found.data.map((p) => [p.id, p.name ?? p.productNumber])) })))
      .catch(() => undefined);
  }, [api, key]);
  return names;
}

/**
 * A product search (name or number, through the Admin API) whose hits are buttons:
 * choosing one calls `onPick`. Keyboard: type, Tab to a hit, Enter.
 */
export function ProductPicker({ label, onPick, exclude = [] }: { label: string; onPick: (id: string, name: string) => void; exclude?: string[] }) {
  const { t } = useTranslation();
  const api = useAdminApi();
  const id = useId();
  const [term, setTerm] = useState('');
  const [hits, setHits] = useState<ProductHit[]>([]);

  useEffect(() => {
    const query = term.trim();
    if (query.length < 2) return;
    let current = true;
    const timer = setTimeout(() => {
      api
        .search<ProductHit>('product', {
          limit: 8,
          filter: [
            { type: 'equals', field: 'parentId', value: null },
            {
              type: 'multi',
              operator: 'or',
              queries: [
                { type: 'contains', field: 'name', value: query },
                { type: 'contains', field: 'productNumber', value: query },
              ],
            },
          ],
        })
        .then((found) => current && setHits(found.data))
        .catch(() => current && setHits([]));
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, term]);

  const shown = term.trim().length < 2 ? [] : hits.filter((hit) => !exclude.includes(hit.id));
  return (
    <div className="field admin-picker">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" value={term} placeholder={t('admin.presentations.searchProducts')} onChange={(event) => setTerm(event.target.value)} />
      {shown.length > 0 && (
        <ul className="admin-picker__hits" aria-label={t('admin.presentations.hits')}>
          {shown.map((hit) => (
            <li key={hit.id}>
              <button
                type="button"
                className="button button--small"
                onClick={() => {
                  onPick(hit.id, hit.name ?? hit.productNumber);
                  setTerm('');
                }}
              >
                {t('admin.presentations.pick', { name: hit.name ?? hit.productNumber, number: hit.productNumber })}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
