import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorView } from '@/components/error-view';
import { Spinner } from '@/components/spinner';
import { reduceError } from '@/lib/api/errors';
import { useLocalePath } from '@/lib/i18n';
import { productPath } from '@/lib/shop/paths';
import { modalStore } from '@/lib/ui/modal';
import { getProductDetail, type ProductDetail } from '../api/catalog';
import { BuyBox } from './buy-box';
import { productName } from '../utils/product-name';
import { ProductGallery } from '@/components/product/product-gallery';
import './quick-view.css';

/** The quick view modal: gallery and buy box; variants switch in place. */
export function QuickView({ productId }: { productId: string }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const [id, setId] = useState(productId);
  const [detail, setDetail] = useState<ProductDetail | null>(null);
  const [error, setError] = useState<number | null>(null);

  useEffect(() => {
    let cancelled = false;
    getProductDetail(id)
      .then((data) => !cancelled && setDetail(data))
      .catch((failure: unknown) => !cancelled && setError(reduceError(failure).statusCode));
    return () => {
      cancelled = true;
    };
  }, [id]);

  if (error !== null && !detail) return <ErrorView statusCode={error} />;
  if (!detail) return <Spinner label={t('product.loadingProduct')} />;
  const name = productName(detail.product);
  return (
    <div className="quick-view">
      <ProductGallery key={detail.product.id} product={detail.product} name={name} />
      <div>
        <BuyBox detail={detail} headingLevel={2} onVariant={setId} />
        <Link className="button button--wide" to={localePath(productPath(detail.product))} onClick={() => modalStore.getState().close()}>
          {t('product.toProduct')}
        </Link>
      </div>
    </div>
  );
}
