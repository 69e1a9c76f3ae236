import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { GuideCategory, GuideProduct } from '../api/room-admin';
import type { GuideSession } from '../session/guide-session';
import { ProductSearch } from './product-search';
import { SavedProductsLayer } from './saved-products-layer';
import { SaveProductButton } from './save-product-button';
import '../../components/product-rows.css';
import './catalogue-panel.css';

interface CataloguePanelProps {
  session: GuideSession;
  /** Live and not ended: products can be shown to everyone. */
  canAct: boolean;
  /** Runs a hub request; a failure shows the cockpit's alert. */
  act: (request: () => Promise<unknown>) => Promise<void>;
}

/**
 * The guide's catalogue outside the listing editor (spec: "saved products layer and
 * upsert sidebar"): browse by category or search the whole catalogue, show a product to
 * everyone, save it, or add it to the instant listing being composed. Beside it the saved
 * products layer.
 */
export function CataloguePanel({ session, canAct, act }: CataloguePanelProps) {
  const { t } = useTranslation();
  const [categoryId, setCategoryId] = useState('');
  const [categories, setCategories] = useState<GuideCategory[]>([]);
  const draft = useStore(session.listing, (state) => state.draft);
  const [search] = useState(() => new Map<string, (term: string) => Promise<GuideProduct[]>>());
  const searchOf = (category: string) => {
    let found = search.get(category);
    if (!found) {
      found = (value: string) => session.searchProducts(value, category || undefined);
      search.set(category, found);
    }
    return found;
  };

  useEffect(() => {
    let cancelled = false;
    session
      .categories()
      .then((list) => !cancelled && setCategories(list))
      .catch((error: unknown) => console.warn('could not load the categories', error));
    return () => {
      cancelled = true;
    };
  }, [session]);

  const inDraft = new Set((draft?.products ?? []).map((product) => product.id));

  return (
    <section className="catalogue-panel" aria-label={t('catalogue.title')} data-testid="catalogue-panel">
      <div className="catalogue-panel__browse">
        <h2>{t('catalogue.title')}</h2>
        <ProductSearch
          search={searchOf(categoryId)}
          fieldsClassName="catalogue-panel__filters"
          filters={
            <label className="field">
              <span className="field__label">{t('catalogue.category')}</span>
              <select value={categoryId} onChange={(event) => setCategoryId(event.target.value)}>
                <option value="">{t('catalogue.allCategories')}</option>
                {categories.map((category) => (
                  <option key={category.id} value={category.id}>
                    {category.name}
                  </option>
                ))}
              </select>
            </label>
          }
          actions={(product) => (
            <span className="room-row__actions">
              <button
                type="button"
                className="button button--small button--primary"
                disabled={!canAct}
                aria-label={t('catalogue.showProduct', { name: product.name })}
                onClick={() => void act(() => session.highlightProduct(product.id))}
              >
                {t('catalogue.show')}
              </button>
              {draft && (
                <button
                  type="button"
                  className="button button--small"
                  disabled={inDraft.has(product.id)}
                  aria-label={t('instantListing.addProduct', { name: product.name })}
                  onClick={() => session.listing.getState().add(product)}
                >
                  {inDraft.has(product.id) ? t('instantListing.added') : t('catalogue.addToListing')}
                </button>
              )}
              <SaveProductButton session={session} product={product} />
            </span>
          )}
        />
      </div>
      <SavedProductsLayer session={session} canAct={canAct} act={act} />
    </section>
  );
}
