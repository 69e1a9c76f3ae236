import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ProductListing } from '@/features/catalog/components/product-listing';
import type { ListingCriteria } from '@/features/catalog/utils/listing-query';
import { searchProducts } from '@/features/search/api/search';
import { useDocumentTitle } from '@/lib/head';

/** `/search?search=…`: the products matching the term, with filters, sorting and pages. */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const term = (params.get('search') ?? '').trim();
  useDocumentTitle(term ? t('search.resultsTitle', { term }) : t('search.title'));
  const fetchListing = useCallback((criteria: ListingCriteria) => searchProducts(term, criteria), [term]);
  return (
    <div className="container search-page">
      <header className="page-header">
        <h1 className="page-title">{term ? t('search.resultsTitle', { term }) : t('search.title')}</h1>
      </header>
      {term ? (
        <ProductListing key={term} fetchListing={fetchListing} emptyText={t('search.noResults')} />
      ) : (
        <div className="empty-state">
          <p>{t('search.emptyTerm')}</p>
        </div>
      )}
    </div>
  );
}
