import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { Spinner } from '@/components/spinner';
import { openConfirm } from '../../components/confirm';
import type { GuideSession } from '../session/guide-session';
import type { SavedProduct } from '../stores/saved-products';
import { GuideProductLine } from './guide-product-line';
import '../../components/product-rows.css';

interface SavedProductsLayerProps {
  session: GuideSession;
  /** Live and not ended: products can be shown to everyone. */
  canAct: boolean;
  /** Runs a hub request; a failure shows the cockpit's alert. */
  act: (request: () => Promise<unknown>) => Promise<void>;
}

/**
 * The guide's saved products of this appointment (spec: "saved products layer"), in the
 * guide's order: each shown to everyone (pressed while in focus), moved up or down, given
 * a note, removed; all of them presented as a new instant listing or removed together.
 */
export function SavedProductsLayer({ session, canAct, act }: SavedProductsLayerProps) {
  const { t } = useTranslation();
  const { products: saved, failed } = useStore(session.saved);
  const draft = useStore(session.listing, (state) => state.draft);
  const slides = useStore(session.structure, (state) => state.slides);
  const inFocus = useStore(session.client.store, (state) => state.snapshot?.stateForAll.currentGuideProductId ?? null);
  const canList = session.listingLayout() !== null && slides.length > 0;

  return (
    <div className="catalogue-panel__saved" role="region" aria-label={t('catalogue.savedTitle')} data-testid="saved-products">
      <h2>
        {t('catalogue.savedTitle')} {saved && saved.length > 0 && <span className="slide-thumb__tag">{t('catalogue.savedCount', { count: saved.length })}</span>}
      </h2>
      {failed && (
        <p className="alert" role="alert">
          {t('catalogue.savedFailed')}
        </p>
      )}
      {saved === null ? (
        failed ? null : <Spinner />
      ) : saved.length === 0 ? (
        <p className="room-empty">{t('catalogue.savedEmpty')}</p>
      ) : (
        <ol className="room-rows" aria-label={t('catalogue.savedTitle')}>
          {saved.map((product, index) => (
            <SavedRow
              key={product.id}
              session={session}
              product={product}
              first={index === 0}
              last={index === saved.length - 1}
              inFocus={inFocus === product.id}
              canAct={canAct}
              act={act}
            />
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
  );
}

function SavedRow({
  session,
  product,
  first,
  last,
  inFocus,
  canAct,
  act,
}: {
  session: GuideSession;
  product: SavedProduct;
  first: boolean;
  last: boolean;
  inFocus: boolean;
  canAct: boolean;
  act: (request: () => Promise<unknown>) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [note, setNote] = useState<string | null>(null);
  const noteId = useId();
  const store = session.saved.getState();
  const quietly = (change: Promise<void>) => void change.catch(() => undefined);
  return (
    <li className={inFocus ? 'room-row room-row--focus' : 'room-row'} aria-label={product.name}>
      <div className="saved-row__main">
        <GuideProductLine product={product} />
        {product.note && note === null && (
          <p className="saved-row__note" aria-label={t('catalogue.noteOf', { name: product.name })}>
            {product.note}
          </p>
        )}
        {note !== null && (
          <form
            className="saved-row__note-form"
            onSubmit={(event) => {
              event.preventDefault();
              void store
                .setNote(product.id, note)
                .then(() => setNote(null))
                .catch(() => undefined);
            }}
          >
            {/* Labelled by id, not by wrapping: a wrapping label would add the text typed to the field's name. */}
            <div className="field">
              <label className="field__label" htmlFor={noteId}>
                {t('catalogue.noteOf', { name: product.name })}
              </label>
              <textarea id={noteId} value={note} maxLength={500} rows={2} onChange={(event) => setNote(event.target.value)} />
            </div>
            <span className="room-row__actions">
              <button type="submit" className="button button--small button--primary">
                {t('catalogue.saveNote')}
              </button>
              <button type="button" className="button button--small" onClick={() => setNote(null)}>
                {t('cockpit.cancel')}
              </button>
            </span>
          </form>
        )}
      </div>
      <span className="room-row__actions">
        <button
          type="button"
          className="button button--small button--primary"
          disabled={!canAct}
          aria-pressed={inFocus}
          aria-label={t('catalogue.showSaved', { name: product.name })}
          onClick={() => void act(() => session.highlightProduct(product.id))}
        >
          {inFocus ? t('cockpit.inFocus') : t('catalogue.show')}
        </button>
        <button type="button" className="button button--small" disabled={first} aria-label={t('instantListing.moveUp', { name: product.name })} onClick={() => quietly(store.move(product.id, -1))}>
          ↑
        </button>
        <button type="button" className="button button--small" disabled={last} aria-label={t('instantListing.moveDown', { name: product.name })} onClick={() => quietly(store.move(product.id, 1))}>
          ↓
        </button>
        <button
          type="button"
          className="button button--small"
          aria-label={t('catalogue.editNoteOf', { name: product.name })}
          aria-expanded={note !== null}
          onClick={() => setNote(note === null ? (product.note ?? '') : null)}
        >
          {t('catalogue.editNote')}
        </button>
        <button
          type="button"
          className="button button--small"
          aria-label={t('catalogue.unsaveProduct', { name: product.name })}
          onClick={() => quietly(store.remove(product.id))}
        >
          {t('room.remove')}
        </button>
      </span>
    </li>
  );
}
