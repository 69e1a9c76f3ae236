import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { reduceError } from '@/lib/api/errors';
import { withLoadingBar } from '@/lib/ui/loading-bar';
import { ErrorView } from '@/components/error-view';
import type { ListingResult } from '../api/catalog';
import {
  hasListingParams,
  pageWindow,
  parseListingQuery,
  SORTING_LABELS,
  toCriteria,
  updateListingParams,
  type ListingCriteria,
} from '../utils/listing-query';
import { ActiveFilters, ListingFilters, type FilterChange } from './listing-filters';
import { ProductCard, ProductCardSkeleton } from './product-card';
import './product-listing.css';

interface ProductListingProps {
  /** The first page as the page's data delivered it, used while the URL asks for no change. */
  initial?: ListingResult | null;
  fetchListing: (criteria: ListingCriteria) => Promise<ListingResult>;
  showFilters?: boolean;
  /** Shown when nothing matches without any filter. */
  emptyText?: string;
}

function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={t('listing.pagination')}>
      <button type="button" className="pagination__step" disabled={page <= 1} onClick={() => onPage(page - 1)} aria-label={t('listing.previousPage')}>
        ‹
      </button>
      {pageWindow(page, pages).map((entry, index) =>
        entry === null ? (
          <span key={`gap${index}`} className="pagination__gap" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={entry}
            type="button"
            className="pagination__page"
            aria-current={entry === page ? 'page' : undefined}
            aria-label={t('listing.page', { page: entry })}
            onClick={() => onPage(entry)}
          >
            {entry}
          </button>
        ),
      )}
      <button type="button" className="pagination__step" disabled={page >= pages} onClick={() => onPage(page + 1)} aria-label={t('listing.nextPage')}>
        ›
      </button>
    </nav>
  );
}

/** A product grid with filters, active filter tags, sorting and pages, all kept in the URL. */
export function ProductListing({ initial, fetchListing, showFilters = true, emptyText }: ProductListingProps) {
  const { t } = useTranslation();
  const [location, setParams] = useSearchParams();
  // The change shows at once, before the navigation to the new query string settles.
  const [pending, setPending] = useState<URLSearchParams | null>(null);
  const [pendingFor, setPendingFor] = useState(location);
  if (pendingFor !== location) {
    setPendingFor(location);
    setPending(null);
  }
  const params = pending ?? location;
  const query = useMemo(() => parseListingQuery(params), [params]);
  const useInitial = !!initial && !hasListingParams(params);
  // The last answer of the shop (the previous page's result stays shown while the next loads).
  const [fetched, setFetched] = useState<{ key: string; result: ListingResult | null; error: number | null } | null>(null);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const topRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (filtersOpen) closeRef.current?.focus();
  }, [filtersOpen]);
  const criteriaKey = JSON.stringify(toCriteria(query));
  const requestKey = `${criteriaKey}#${attempt}`;
  const result = useInitial ? initial : (fetched?.result ?? initial ?? null);
  const error = useInitial ? null : (fetched?.error ?? null);
  const loading = !useInitial && fetched?.key !== requestKey;
  const fetchPage = useEffectEvent((criteria: ListingCriteria) => fetchListing(criteria));

  useEffect(() => {
    if (useInitial) return;
    let cancelled = false;
    withLoadingBar(fetchPage(JSON.parse(criteriaKey) as ListingCriteria))
      .then((data) => !cancelled && setFetched({ key: requestKey, result: data, error: null }))
      .catch(
        (failure: unknown) =>
          !cancelled && setFetched((previous) => ({ key: requestKey, result: previous?.result ?? null, error: reduceError(failure).statusCode })),
      );
    return () => {
      cancelled = true;
    };
  }, [criteriaKey, requestKey, useInitial]);

  const change = (update: FilterChange | { type: 'order'; value: string } | { type: 'page'; value: number }) => {
    const next = updateListingParams(params, update);
    setPending(next);
    setParams(next, { preventScrollReset: true });
    if (update.type === 'page') topRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  if (error !== null && !result) return <ErrorView statusCode={error} onRetry={() => setAttempt((n) => n + 1)} />;

  const products = result?.elements ?? [];
  const total = result?.total ?? 0;
  const limit = result?.limit || query.limit;
  const page = result?.page || query.p;
  const pages = Math.max(1, Math.ceil(total / limit));
  const sortings = result?.availableSortings ?? [];
  const currentSorting = result?.sorting ?? query.order ?? sortings[0]?.key ?? '';
  const filtered = query.properties.length + query.manufacturer.length > 0 || query.minPrice !== undefined || query.maxPrice !== undefined || !!query.rating || query.shippingFree;

  return (
    <div className="listing-container" ref={topRef}>
    <div className={showFilters ? 'listing listing--filters' : 'listing'}>
      {showFilters && filtersOpen && <div className="listing__backdrop" aria-hidden="true" onClick={() => setFiltersOpen(false)} />}
      {showFilters && (
        <aside
          className="listing__sidebar"
          data-open={filtersOpen}
          aria-label={t('listing.filters')}
          onKeyDown={(event) => event.key === 'Escape' && setFiltersOpen(false)}
        >
          <div className="listing__sidebar-header">
            <h2 className="listing__sidebar-title">{t('listing.filters')}</h2>
            <button ref={closeRef} type="button" className="icon-button listing__sidebar-close" aria-label={t('listing.hideFilters')} onClick={() => setFiltersOpen(false)}>
              ×
            </button>
          </div>
          <ListingFilters result={result} query={query} onChange={change} />
        </aside>
      )}
      <div className="listing__main">
        <div className="listing__toolbar">
          <p className="listing__count" aria-live="polite">
            {result ? t('listing.productCount', { count: total }) : t('listing.loading')}
          </p>
          <div className="listing__tools">
            {showFilters && (
              <button type="button" className="button button--small listing__filter-toggle" aria-expanded={filtersOpen} onClick={() => setFiltersOpen(true)}>
                {t('listing.showFilters')}
              </button>
            )}
            {sortings.length > 0 && (
              <label className="select">
                <span>{t('listing.sortBy')}</span>
                <select value={currentSorting} onChange={(event) => change({ type: 'order', value: event.target.value })}>
                  {sortings.map((sorting) => {
                    const fallback = SORTING_LABELS[sorting.key as keyof typeof SORTING_LABELS];
                    return (
                      <option key={sorting.key} value={sorting.key}>
                        {sorting.translated?.label || sorting.label || (fallback ? t(`listing.sortings.${fallback}`) : sorting.key)}
                      </option>
                    );
                  })}
                </select>
              </label>
            )}
          </div>
        </div>
        {showFilters && <ActiveFilters result={result} query={query} onChange={change} />}
        <div className="product-grid" aria-busy={loading} data-loading={loading && !!result}>
          {!result && loading
            ? Array.from({ length: Math.min(query.limit, 8) }, (_, index) => <ProductCardSkeleton key={index} />)
            : products.map((product) => <ProductCard key={product.id} product={product} />)}
        </div>
        {result && products.length === 0 && (
          <div className="empty-state">
            <p>{filtered ? t('listing.noProducts') : (emptyText ?? t('errorPages.noProductsFound'))}</p>
            {filtered && (
              <button type="button" className="button" onClick={() => change({ type: 'reset' })}>
                {t('listing.resetAll')}
              </button>
            )}
          </div>
        )}
        <Pagination page={page} pages={pages} onPage={(value) => change({ type: 'page', value })} />
      </div>
    </div>
    </div>
  );
}
