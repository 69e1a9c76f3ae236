import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useProductSummaries } from './product-summaries';
import './highlighted-product.css';

/**
 * The product the guide highlights: its picture and name, or its id while (or if) it
 * cannot be loaded; with `onOpen` a button opens its details, `actions` (a like button) sit beside it.
 */
export function HighlightedProduct({
  productId,
  contextToken,
  onOpen,
  actions,
}: {
  productId: string;
  contextToken?: string;
  onOpen?: (name: string) => void;
  actions?: (name: string) => ReactNode;
}) {
  const { t } = useTranslation();
  const { summaries } = useProductSummaries([productId], contextToken);
  const label = summaries[0] ?? null;

  const name = label?.name ?? t('room.productNumber', { id: productId });
  return (
    <section className="highlight" aria-label={t('room.highlighted')} data-testid="highlighted-product" data-product-id={productId}>
      <p className="highlight__label">{t('room.highlighted')}</p>
      {label?.coverUrl && <img className="highlight__image" src={label.coverUrl} alt="" />}
      <p className="highlight__name">{name}</p>
      {label && <p className="highlight__number">{label.productNumber}</p>}
      {(onOpen || actions) && (
        <div className="highlight__actions">
          {onOpen && (
            <button type="button" className="button" onClick={() => onOpen(name)}>
              {t('room.showDetails')}
            </button>
          )}
          {actions?.(name)}
        </div>
      )}
    </section>
  );
}
