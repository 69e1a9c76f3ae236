import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { Spinner } from '@/components/spinner';
import { openConfirm } from '../../components/confirm';
import type { GuideCategory, GuideProduct } from '../api/room-admin';
import type { GuideSession } from '../../session/room-session';
import { GuideProductLine } from './guide-product-line';
import { useProductSearch } from './use-product-search';
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
 * The guide's catalogue outside the listing editor: browse by category or search the
 * whole catalogue, show a product to everyone, keep it among the saved products, or add
 * it to the instant listing being composed. Beside it the saved products (spec: "saved
 * products layer"), presented one by one or together as a new instant listing.
 */
export function CataloguePanel({ session, canAct, act }: CataloguePanelProps) {
  const { t } = useTranslation();
  const [term, setTerm] = useState('');
  const [categoryId, setCategoryId] = useState('');
  const [categories, setCategories] = useState<GuideCategory[]>([]);
  const { products: saved, failed: savedFailed } = useStore(session.saved);
  const draft = useStore(session.listing, (state) => state.draft);
  const slides = useStore(session.structure, (state) => state.slides);
  const [search] = useState(() => new Map<string, (term: string) => Promise<GuideProduct[]>>());
  const searchOf = (category: string) => {
    let found = search.get(category);
    if (!found) {
      found = (value: string) => session.searchProducts(value, category || undefined);
      search.set(category, found);
    }
    return found;
  };
  const { found, failed: searchFailed } = useProductSearch(searchOf(categoryId), term);

  useEffect(() => {
    let cancelled = false;
    session
      .categories()
      .then((list) => !cancelled && setCategories(list))
      .catch((error: unknown) => console.warn('could not load the categories', error));
    if (session.saved.getState().products === null) void session.saved.getState().load().catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [session]);

  const savedIds = new Set((saved ?? []).map((product) => product.id));
  const inDraft = new Set((draft?.products ?? []).map((product) => product.id));
  const canList = session.listingLayout() !== null && slides.length > 0;

  const rowActions = (product: GuideProduct, isSaved: boolean) => (
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
      {isSaved ? (
        <button
          type="button"
          className="button button--small"
          aria-label={t('catalogue.unsaveProduct', { name: product.name })}
          onClick={() => void session.saved.getState().remove(product.id).catch(() => undefined)}
        >
          {t('room.remove')}
        </button>
      ) : (
        <button
          type="button"
          className="button button--small"
          disabled={savedIds.has(product.id)}
          aria-label={t('catalogue.saveProduct', { name: product.name })}
          onClick={() => void session.saved.getState().save(product).catch(() => undefined)}
        >
          {savedIds.has(product.id) ? t('catalogue.saved') : t('catalogue.save')}
        </button>
      )}
    </span>
  );

  return (
    <section className="catalogue-panel" aria-label={t('catalogue.title')} data-testid="catalogue-panel">
      <div className="catalogue-panel__browse">
        <h2>{t('catalogue.title')}</h2>
        <div className="catalogue-panel__filters">
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
          <label className="field">
            <span className="field__label">{t('instantListing.search')}</span>
            <input type="search" value={term} onChange={(event) => setTerm(event.target.value)} placeholder={t('instantListing.searchPlaceholder')} />
          </label>
        </div>
        {searchFailed && (
          <p className="alert" role="alert">
            {t('room.productsFailed')}
          </p>
        )}
        {found === null ? (
          <Spinner />
        ) : found.length === 0 ? (
          <p className="room-empty">{t('instantListing.noResults')}</p>
        ) : (
          <ul className="room-rows" aria-label={t('catalogue.results')}>
            {found.map((product) => (
              <li key={product.id} className="room-row" aria-label={product.name}>
                <GuideProductLine product={product} />
                {rowActions(product, false)}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="catalogue-panel__saved" role="region" aria-label={t('catalogue.savedTitle')}>
        <h2>{t('catalogue.savedTitle')}</h2>
        {savedFailed && (
          <p className="alert" role="alert">
            {t('catalogue.savedFailed')}
          </p>
        )}
        {saved === null ? (
          savedFailed ? null : <Spinner />
        ) : saved.length === 0 ? (
          <p className="room-empty">{t('catalogue.savedEmpty')}</p>
        ) : (
          <ol className="room-rows" aria-label={t('catalogue.savedTitle')}>
            {saved.map((product) => (
              <li key={product.id} className="room-row" aria-label={product.name}>
                <GuideProductLine product={product} />
                {rowActions(product, true)}
              </li>
            ))}
          </ol>
        )}
        <div className="catalogue-panel__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={!canAct || !canList || draft !== null || !saved?.length}
            title={canList ? undefined : t('instantListing.noLayout')}
            onClick={() => session.startListingWith(t('catalogue.savedListingName'), saved ?? [])}
          >
            {t('catalogue.presentSaved')}
          </button>
          <button
            type="button"
            className="button"
            disabled={!saved?.length}
            onClick={() =>
              openConfirm({
                title: t('catalogue.clearTitle'),
                text: t('catalogue.clearText'),
                confirmLabel: t('catalogue.clearConfirm'),
                cancelLabel: t('cockpit.cancel'),
                failedText: t('catalogue.savedFailed'),
                danger: true,
                onConfirm: () => session.saved.getState().clear(),
              })
            }
          >
            {t('catalogue.clear')}
          </button>
        </div>
      </div>
    </section>
  );
}
