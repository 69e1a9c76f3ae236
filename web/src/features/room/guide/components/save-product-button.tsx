import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { GuideProduct } from '../api/room-admin';
import type { GuideSession } from '../session/guide-session';

/**
 * Keeps a product among the guide's saved products (spec: "upsert sidebar"): beside each
 * product of the current slide, on the product in focus and in the catalogue search.
 * Shows "Saved" once it is there.
 */
export function SaveProductButton({ session, product }: { session: GuideSession; product: Pick<GuideProduct, 'id' | 'name'> & Partial<GuideProduct> }) {
  const { t } = useTranslation();
  const saved = useStore(session.saved, (state) => state.products?.some((other) => other.id === product.id) ?? false);
  return (
    <button
      type="button"
      className="button button--small"
      disabled={saved}
      aria-label={t('catalogue.saveProduct', { name: product.name })}
      onClick={() =>
        void session.saved
          .getState()
          .save({ id: product.id, name: product.name, productNumber: product.productNumber ?? '', coverUrl: product.coverUrl ?? null })
          .catch(() => undefined)
      }
    >
      {saved ? t('catalogue.saved') : t('catalogue.save')}
    </button>
  );
}
