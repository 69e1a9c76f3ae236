import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/spinner';
import type { GuideProduct } from '../api/room-admin';
import { GuideProductLine } from './guide-product-line';
import { useProductSearch } from './use-product-search';
import '../../components/product-rows.css';

interface ProductSearchProps {
  /** Asks the shop for the products matching a term (name or product number). */
  search: (term: string) => Promise<GuideProduct[]>;
  /** The buttons beside each product found. */
  actions: (product: GuideProduct) => ReactNode;
  /** The list's accessible name; "Products found" unless told. */
  resultsLabel?: string;
  /** Fields shown before the search field (the catalogue's category). */
  filters?: ReactNode;
  /** The class of the row holding the filters and the search field. */
  fieldsClassName?: string;
  listClassName?: string;
}

/**
 * The guide's product search over the whole catalogue, one block for every cockpit tool
 * that picks products (catalogue, saved products, instant listing, templates): the search
 * field, the products found with their number and cover, and each one's buttons.
 */
export function ProductSearch({ search, actions, resultsLabel, filters, fieldsClassName, listClassName }: ProductSearchProps) {
  const { t } = useTranslation();
  const [term, setTerm] = useState('');
  const { found, failed } = useProductSearch(search, term);
  const field = (
    <label className="field">
      <span className="field__label">{t('instantListing.search')}</span>
      <input type="search" value={term} onChange={(event) => setTerm(event.target.value)} placeholder={t('instantListing.searchPlaceholder')} />
    </label>
  );
  return (
    <>
      {filters || fieldsClassName ? (
        <div className={fieldsClassName}>
          {filters}
          {field}
        </div>
      ) : (
        field
      )}
      {failed && (
        <p className="alert" role="alert">
          {t('room.productsFailed')}
        </p>
      )}
      {found === null ? (
        <Spinner />
      ) : found.length === 0 ? (
        <p className="room-empty">{t('instantListing.noResults')}</p>
      ) : (
        <ul className={listClassName ? `room-rows ${listClassName}` : 'room-rows'} aria-label={resultsLabel ?? t('catalogue.results')}>
          {found.map((product) => (
            <li key={product.id} className="room-row" aria-label={product.name}>
              <GuideProductLine product={product} />
              {actions(product)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
