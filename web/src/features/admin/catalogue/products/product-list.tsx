import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { formatPrice } from '@/lib/format';
import { useAdminApi } from '../../api/context';
import { errorText } from '../../api/errors';
import { AdminPage, Notice } from '../../components/admin-page';
import { useAdminPath } from '../../components/admin-path';
import { Pager } from '../../components/pager';
import { useDisplayName } from '../languages';
import type { Product } from '../types';

const LIMIT = 25;
const SORTS = {
  name: { field: 'name', order: 'ASC', key: 'admin.products.sortName' },
  number: { field: 'productNumber', order: 'ASC', key: 'admin.products.sortNumber' },
  stock: { field: 'stock', order: 'ASC', key: 'admin.products.sortStock' },
  newest: { field: 'createdAt', order: 'DESC', key: 'admin.products.sortNewest' },
} as const;
type SortKey = keyof typeof SORTS;

/** `/admin/products`: main products (variants are in their parent), searchable, sortable, paged; state in the URL. */
export function ProductList() {
  const { t, i18n } = useTranslation();
  const displayName = useDisplayName();
  const api = useAdminApi();
  const adminPath = useAdminPath();
  const [params, setParams] = useSearchParams();
  const term = params.get('term') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const sort: SortKey = (params.get('sort') as SortKey) in SORTS ? (params.get('sort') as SortKey) : 'name';
  const [draft, setDraft] = useState(term);
  const [result, setResult] = useState<{ data: Product[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const { field, order } = SORTS[sort];
    api
      .search<Product>('product', {
        page,
        limit: LIMIT,
        filter: [
          { type: 'equals', field: 'parentId', value: null },
          ...(term
            ? [{ type: 'multi', operator: 'or', queries: [
                  { type: 'contains', field: 'name', value: term },
                  { type: 'contains', field: 'productNumber', value: term },
                ] }]
            : []),
        ],
        sort: [{ field, order }],
      })
      .then((answer) => live && (setResult(answer), setError(null)))
      .catch((failure: unknown) => live && setError(errorText(failure, t('admin.common.failed'))));
    return () => {
      live = false;
    };
  }, [api, term, page, sort, t]);

  const update = (next: Record<string, string>) => setParams({ ...Object.fromEntries(params), ...next });

  return (
    <AdminPage
      title={t('admin.products.title')}
      actions={
        <Link className="button button--primary" to={adminPath('products/new')}>
          {t('admin.products.new')}
        </Link>
      }
    >
      <form
        className="admin-toolbar"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          update({ term: draft.trim(), page: '1' });
        }}
      >
        <div className="field">
          <label htmlFor="product-search">{t('admin.products.searchLabel')}</label>
          <input id="product-search" type="search" value={draft} onChange={(event) => setDraft(event.target.value)} />
        </div>
        <button type="submit" className="button">
          {t('admin.common.search')}
        </button>
        <div className="field">
          <label htmlFor="product-sort">{t('admin.common.sortBy')}</label>
          <select id="product-sort" value={sort} onChange={(event) => update({ sort: event.target.value, page: '1' })}>
            {(Object.keys(SORTS) as SortKey[]).map((key) => (
              <option key={key} value={key}>
                {t(SORTS[key].key)}
              </option>
            ))}
          </select>
        </div>
      </form>
      {error && <Notice>{error}</Notice>}
      {!result && !error && <p>{t('admin.common.loading')}</p>}
      {result && result.data.length === 0 && <p>{t('admin.common.nothingFound')}</p>}
      {result && result.data.length > 0 && (
        <>
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('admin.products.name')}</th>
                <th scope="col">{t('admin.products.number')}</th>
                <th scope="col">{t('admin.products.price')}</th>
                <th scope="col">{t('admin.products.stock')}</th>
                <th scope="col">{t('admin.products.variants')}</th>
                <th scope="col">{t('admin.products.status')}</th>
              </tr>
            </thead>
            <tbody>
              {result.data.map((product) => (
                <tr key={product.id}>
                  <td>
                    <Link to={adminPath(`products/${product.id}`)}>{displayName(product) || product.productNumber}</Link>
                  </td>
                  <td>{product.productNumber}</td>
                  <td>{product.price?.[0] ? formatPrice(product.price[0].gross, i18n.language) : ''}</td>
                  <td>{product.stock}</td>
                  <td>{product.childCount}</td>
                  <td>{product.active ? t('admin.common.active') : t('admin.common.inactive')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} limit={LIMIT} total={result.total} onPage={(next) => update({ page: String(next) })} />
        </>
      )}
    </AdminPage>
  );
}
