import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { formatDate } from '@/lib/format';
import { useAdminApi } from '../api/context';
import { errorText } from '../api/errors';
import { AdminPage, Notice } from '../components/admin-page';
import { useAdminPath } from '../components/admin-path';
import { Pager } from '../components/pager';
import { CUSTOMER_FILTERS, customerListCriteria, type CustomerFilter } from './customer-criteria';
import { statusOf, type AdminCustomer } from './types';

const LIMIT = 25;

/** `/admin/customers`: customers and guests, newest first, searched by name, e-mail, number or company, filtered by status. */
export function CustomerList() {
  const { t, i18n } = useTranslation();
  const api = useAdminApi();
  const adminPath = useAdminPath();
  const [params, setParams] = useSearchParams();
  // What the page that led here has to say (a customer deleted).
  const notice = (useLocation().state as { notice?: string } | null)?.notice ?? null;
  const term = params.get('term') ?? '';
  const status = (CUSTOMER_FILTERS as string[]).includes(params.get('status') ?? '') ? (params.get('status') as CustomerFilter) : '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [draft, setDraft] = useState(term);
  const [lastTerm, setLastTerm] = useState(term);
  if (term !== lastTerm) {
    setLastTerm(term);
    setDraft(term);
  }
  // The answer with the request it answers: a newer request shows "loading" over the old rows.
  const [answered, setAnswered] = useState<{ key: string; data: AdminCustomer[]; total: number; error: string | null } | null>(null);
  const criteria = useMemo(() => customerListCriteria(term, status, page, LIMIT), [term, status, page]);
  const key = JSON.stringify(criteria);

  useEffect(() => {
    let live = true;
    api
      .search<AdminCustomer>('customer', criteria)
      .then((answer) => live && setAnswered({ key, data: answer.data, total: answer.total, error: null }))
      .catch((failure: unknown) => live && setAnswered({ key, data: [], total: 0, error: errorText(failure, t('admin.customers.loadFailed')) }));
    return () => {
      live = false;
    };
  }, [api, criteria, key, t]);

  const loading = answered?.key !== key;
  const error = answered?.error ?? null;
  const result = answered && !answered.error ? answered : null;

  const update = (next: Record<string, string>) => {
    const merged = { term, status, page: '1', ...next };
    setParams(Object.fromEntries(Object.entries(merged).filter(([, value]) => value)));
  };

  return (
    <AdminPage title={t('admin.customers.title')}>
      {notice && <Notice kind="success">{notice}</Notice>}
      <form
        className="admin-toolbar"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          update({ term: draft.trim() });
        }}
      >
        <div className="field">
          <label htmlFor="customer-search">{t('admin.customers.searchLabel')}</label>
          <input id="customer-search" type="search" value={draft} onChange={(event) => setDraft(event.target.value)} />
        </div>
        <button type="submit" className="button">
          {t('admin.common.search')}
        </button>
        <div className="field">
          <label htmlFor="customer-status">{t('admin.customers.statusFilter')}</label>
          <select id="customer-status" value={status} onChange={(event) => update({ status: event.target.value })}>
            {CUSTOMER_FILTERS.map((value) => (
              <option key={value} value={value}>
                {value ? t(`admin.customers.status.${value}`) : t('admin.orders.filters.any')}
              </option>
            ))}
          </select>
        </div>
      </form>
      {error && <Notice>{error}</Notice>}
      {loading && !error && (
        <p className="muted" role="status">
          {t('admin.common.loading')}
        </p>
      )}
      {result && !error && !loading && result.data.length === 0 && (
        <p className="admin-empty">{term || status ? t('admin.customers.noneFound') : t('admin.customers.none')}</p>
      )}
      {result && !error && result.data.length > 0 && (
        <>
          <div className="admin-table-scroll">
            <table className="admin-table" aria-busy={loading}>
              <thead>
                <tr>
                  <th scope="col">{t('admin.customers.name')}</th>
                  <th scope="col">{t('admin.customers.number')}</th>
                  <th scope="col">{t('admin.customers.email')}</th>
                  <th scope="col">{t('admin.customers.group')}</th>
                  <th scope="col">{t('admin.customers.statusColumn')}</th>
                  <th scope="col">{t('admin.customers.since')}</th>
                </tr>
              </thead>
              <tbody>
                {result.data.map((customer) => (
                  <tr key={customer.id}>
                    <td>
                      <Link to={adminPath(`customers/${customer.id}`)}>{`${customer.firstName} ${customer.lastName}`.trim() || customer.email}</Link>
                      {customer.company && (
                        <>
                          <br />
                          <span className="muted">{customer.company}</span>
                        </>
                      )}
                    </td>
                    <td>{customer.customerNumber}</td>
                    <td>{customer.email}</td>
                    <td>{customer.group?.translated?.name ?? customer.group?.name ?? '—'}</td>
                    <td>{t(`admin.customers.status.${statusOf(customer)}`)}</td>
                    <td>{formatDate(customer.createdAt, { locale: i18n.language })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {(result.total > LIMIT || page > 1) && <Pager page={page} limit={LIMIT} total={result.total} onPage={(next) => update({ page: String(next) })} />}
        </>
      )}
    </AdminPage>
  );
}
