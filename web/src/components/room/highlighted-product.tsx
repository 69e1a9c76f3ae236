import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '@/config/runtime';
import { getProductLabels, type ProductLabel } from '@/lib/api/products';

/** The product the guide highlights: its picture and name, or its id while (or if) it cannot be loaded. */
export function HighlightedProduct({ productId, contextToken }: { productId: string; contextToken?: string }) {
  const { t } = useTranslation();
  const config = useRuntimeConfig();
  const [label, setLabel] = useState<ProductLabel | null>(null);

  useEffect(() => {
    let cancelled = false;
    setLabel(null);
    getProductLabels(config, { ids: [productId], contextToken })
      .then(([found]) => !cancelled && setLabel(found ?? null))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [config, productId, contextToken]);

  return (
    <section className="highlight" aria-label={t('room.highlighted')} data-testid="highlighted-product" data-product-id={productId}>
      <p className="highlight__label">{t('room.highlighted')}</p>
      {label?.coverUrl && <img className="highlight__image" src={label.coverUrl} alt="" />}
      <p className="highlight__name">{label?.name ?? t('room.productNumber', { id: productId })}</p>
      {label && <p className="highlight__number">{label.productNumber}</p>}
    </section>
  );
}
