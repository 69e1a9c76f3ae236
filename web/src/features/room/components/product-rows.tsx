import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/spinner';
import { formatPrice } from '@/lib/format';
import { useProductSummaries, type ProductSummary } from './product-summaries';
import './product-rows.css';

/**
 * A list of products by id (like list, last seen, wishlist): picture, name, price, a
 * button that opens the product, and the list's own actions; loading, empty and error states.
 */
export function ProductRows({
  ids,
  contextToken,
  label,
  empty,
  onOpen,
  actions,
}: {
  ids: string[];
  contextToken?: string;
  label: string;
  empty: ReactNode;
  onOpen: (product: ProductSummary) => void;
  actions?: (product: ProductSummary) => ReactNode;
}) {
  const { t } = useTranslation();
  const { summaries, status, retry } = useProductSummaries(ids, contextToken);
  if (ids.length === 0) return <div className="room-empty">{empty}</div>;
  if (status === 'failed' && summaries.length === 0) {
    return (
      <div className="alert" role="alert">
        <p>{t('room.productsFailed')}</p>
        <button type="button" className="button button--small" onClick={retry}>
          {t('room.retry')}
        </button>
      </div>
    );
  }
  if (status === 'loading' && summaries.length === 0) return <Spinner />;
  return (
    <ul className="room-rows" aria-label={label}>
      {summaries.map((product) => (
        <li key={product.id} className="room-row" aria-label={product.name} data-product-id={product.id}>
          <button type="button" className="room-row__open" aria-label={t('room.detailsOf', { name: product.name })} onClick={() => onOpen(product)}>
            <span className="room-row__media">{product.coverUrl ? <img src={product.coverUrl} alt="" loading="lazy" /> : null}</span>
            <span className="room-row__text">
              <span className="room-row__name">{product.name}</span>
              <span className="room-row__price">{formatPrice(product.price)}</span>
            </span>
          </button>
          {actions && <span className="room-row__actions">{actions(product)}</span>}
        </li>
      ))}
    </ul>
  );
}
