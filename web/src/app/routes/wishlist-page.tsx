import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { Spinner } from '@/components/spinner';
import { getProducts, type Product } from '@/features/catalog/api/catalog';
import { ProductCard } from '@/features/catalog/components/product-card';
import { useDocumentTitle } from '@/lib/head';
import { wishlistStore } from '@/lib/shop/wishlist-store';
import { EmptyShopping } from '@/components/empty-state';

/** `/wishlist`: the products on this browser's wishlist. */
export function Component() {
  const { t, i18n } = useTranslation();
  const ids = useStore(wishlistStore, (state) => state.ids);
  const [products, setProducts] = useState<Product[] | null>(null);
  useDocumentTitle(t('wishlist.title'));
  const key = ids.join(',');
  useEffect(() => {
    let cancelled = false;
    getProducts(key ? key.split(',') : [])
      .then((list) => !cancelled && setProducts(list))
      .catch(() => !cancelled && setProducts([]));
    return () => {
      cancelled = true;
    };
  }, [key, i18n.language]);
  return (
    <div className="container">
      <header className="page-header">
        <h1 className="page-title">{t('wishlist.title')}</h1>
      </header>
      {ids.length === 0 ? (
        <EmptyShopping text={t('wishlist.empty')} />
      ) : !products ? (
        <Spinner />
      ) : (
        <div className="product-grid">
          {products.map((product) => (
            <ProductCard key={product.id} product={product} />
          ))}
        </div>
      )}
    </div>
  );
}
