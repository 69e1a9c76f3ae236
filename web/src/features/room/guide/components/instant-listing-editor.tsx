import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { openConfirm } from '../../components/confirm';
import type { GuideProduct } from '../api/room-admin';
import { canPublish, isDirty, type InstantListingState } from '../stores/instant-listing';
import '../../components/product-rows.css';
import './instant-listing-editor.css';
import { GuideProductLine } from './guide-product-line';
import { ProductSearch } from './product-search';

/**
 * The guide's instant listing: a name, products found by a search, their order; publish,
 * discard, sort, remove all and delete each ask first.
 */
export function InstantListingEditor({
  store,
  search,
}: {
  store: StoreApi<InstantListingState>;
  search: (term: string) => Promise<GuideProduct[]>;
}) {
  const { t } = useTranslation();
  const { draft, status } = useStore(store);
  const dirty = useStore(store, isDirty);
  const publishable = useStore(store, canPublish);

  if (!draft) return null;
  const picked = new Set(draft.products.map((product) => product.id));
  const confirm = (key: 'removeAll' | 'discard' | 'delete' | 'publish', onConfirm: () => unknown, danger = false) =>
    openConfirm({
      title: t(`instantListing.${key}Title`),
      text: t(`instantListing.${key}Text`),
      confirmLabel: t(`instantListing.${key}Confirm`),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('instantListing.failed'),
      danger,
      onConfirm: async () => {
        const result = await onConfirm();
        if (result === false) throw new Error('refused');
      },
    });
  const sortModal = () =>
    openConfirm({
      title: t('instantListing.sortTitle'),
      text: t('instantListing.sortText'),
      confirmLabel: t('instantListing.sortConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('instantListing.failed'),
      onConfirm: () => {
        store.getState().sortByName('asc');
        return Promise.resolve();
      },
    });

  return (
    <section className="listing-editor" aria-label={t('instantListing.editorTitle')} data-testid="instant-listing-editor">
      <header className="listing-editor__header">
        <h2>{draft.groupId ? t('instantListing.editTitle') : t('instantListing.newTitle')}</h2>
        {dirty && <span className="slide-thumb__tag">{t('instantListing.unsaved')}</span>}
      </header>
      <label className="field">
        <span className="field__label">{t('instantListing.name')}</span>
        <input value={draft.name} maxLength={255} onChange={(event) => store.getState().rename(event.target.value)} />
      </label>
      <div className="listing-editor__columns">
        <div className="listing-editor__search">
          <ProductSearch
            search={search}
            resultsLabel={t('instantListing.results')}
            actions={(product) => (
              <button
                type="button"
                className="button button--small"
                disabled={picked.has(product.id)}
                aria-label={t('instantListing.addProduct', { name: product.name })}
                onClick={() => store.getState().add(product)}
              >
                {picked.has(product.id) ? t('instantListing.added') : t('instantListing.add')}
              </button>
            )}
          />
        </div>
        <div className="listing-editor__picked">
          <h3>{t('instantListing.picked', { count: draft.products.length })}</h3>
          {draft.products.length === 0 ? (
            <p className="room-empty">{t('instantListing.empty')}</p>
          ) : (
            <ol className="room-rows" aria-label={t('instantListing.pickedLabel')}>
              {draft.products.map((product, index) => (
                <li key={product.id} className="room-row" aria-label={product.name}>
                  <GuideProductLine product={product} />
                  <span className="room-row__actions">
                    <button type="button" className="button button--small" disabled={index === 0} aria-label={t('instantListing.moveUp', { name: product.name })} onClick={() => store.getState().move(product.id, -1)}>
                      ↑
                    </button>
                    <button
                      type="button"
                      className="button button--small"
                      disabled={index === draft.products.length - 1}
                      aria-label={t('instantListing.moveDown', { name: product.name })}
                      onClick={() => store.getState().move(product.id, 1)}
                    >
                      ↓
                    </button>
                    <button type="button" className="button button--small" aria-label={t('instantListing.removeProduct', { name: product.name })} onClick={() => store.getState().remove(product.id)}>
                      {t('room.remove')}
                    </button>
                  </span>
                </li>
              ))}
            </ol>
          )}
        </div>
      </div>
      {status === 'failed' && (
        <p className="alert" role="alert">
          {t('instantListing.failed')}
        </p>
      )}
      <div className="listing-editor__actions">
        <button type="button" className="button" disabled={draft.products.length < 2} onClick={sortModal}>
          {t('instantListing.sort')}
        </button>
        <button type="button" className="button" disabled={draft.products.length === 0} onClick={() => confirm('removeAll', () => store.getState().removeAll(), true)}>
          {t('instantListing.removeAll')}
        </button>
        <button type="button" className="button" disabled={!dirty} onClick={() => confirm('discard', () => store.getState().discard())}>
          {t('instantListing.discard')}
        </button>
        {draft.groupId === null && (
          <button type="button" className="button button--danger" onClick={() => confirm('delete', () => store.getState().close(), true)}>
            {t('instantListing.delete')}
          </button>
        )}
        {draft.groupId !== null && (
          <button type="button" className="button" onClick={() => (dirty ? confirm('discard', () => store.getState().close()) : store.getState().close())}>
            {t('instantListing.close')}
          </button>
        )}
        <button type="button" className="button button--primary" disabled={!publishable} onClick={() => confirm('publish', () => store.getState().publish())}>
          {t('instantListing.publish')}
        </button>
      </div>
    </section>
  );
}
