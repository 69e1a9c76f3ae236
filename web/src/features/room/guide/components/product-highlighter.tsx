import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/spinner';
import { modalStore } from '@/lib/ui/modal';
import type { GuideProduct } from '../api/room-admin';
import { GuideProductLine } from './guide-product-line';
import { useProductSearch } from './use-product-search';
import './product-highlighter.css';

interface HighlighterProps {
  /** The whole catalogue by name or product number (the guide's admin product search). */
  search: (term: string) => Promise<GuideProduct[]>;
  onHighlight: (productId: string) => Promise<unknown>;
}

/** Finds a product anywhere in the catalogue and shows it to everyone. */
function Highlighter({ search, onHighlight }: HighlighterProps) {
  const { t } = useTranslation();
  const [term, setTerm] = useState('');
  const { found, failed: searchFailed } = useProductSearch(search, term);
  const [busy, setBusy] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  async function highlight(product: GuideProduct) {
    setBusy(product.id);
    setFailed(false);
    try {
      await onHighlight(product.id);
      modalStore.getState().close();
    } catch {
      setFailed(true);
      setBusy(null);
    }
  }

  return (
    <div className="highlighter">
      <label className="field">
        <span className="field__label">{t('instantListing.search')}</span>
        <input
          type="search"
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          placeholder={t('instantListing.searchPlaceholder')}
          autoFocus
        />
      </label>
      {(searchFailed || failed) && (
        <p className="alert" role="alert">
          {searchFailed ? t('room.productsFailed') : t('cockpit.actionFailed')}
        </p>
      )}
      {found === null ? (
        <Spinner />
      ) : found.length === 0 ? (
        <p className="room-empty">{t('instantListing.noResults')}</p>
      ) : (
        <ul className="room-rows highlighter__results" aria-label={t('instantListing.results')}>
          {found.map((product) => (
            <li key={product.id} className="room-row" aria-label={product.name}>
              <GuideProductLine product={product} />
              <button
                type="button"
                className="button button--small button--primary"
                disabled={busy !== null}
                aria-label={t('cockpit.highlightProduct', { name: product.name })}
                onClick={() => void highlight(product)}
              >
                {t('cockpit.highlightSend')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function openProductHighlighter(title: string, props: HighlighterProps): void {
  modalStore.getState().open(<Highlighter {...props} />, { title, size: 'medium' });
}
