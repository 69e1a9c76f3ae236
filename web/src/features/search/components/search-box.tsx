import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { formatPrice } from '@/lib/format';
import { useLocalePath } from '@/lib/i18n';
import { productPath } from '@/lib/shop/paths';
import { searchSuggest, type ListingResult } from '../api/search';
import './search-box.css';

const SUGGEST_DELAY_MS = 250;
const MIN_TERM_LENGTH = 2;

type Product = ListingResult['elements'][number];

/** The header's search field with product suggestions (a combobox); Enter opens the results page. */
export function SearchBox() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const [term, setTerm] = useState(() => params.get('search') ?? '');
  // The suggestions of the last term asked for; shown while the next ones load.
  const [suggestions, setSuggestions] = useState<{ term: string; result: ListingResult | null }>({ term: '', result: null });
  const searching = term.trim().length >= MIN_TERM_LENGTH;
  const result = searching ? suggestions.result : null;
  const loading = searching && suggestions.term !== term.trim();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const rootRef = useRef<HTMLFormElement>(null);

  // A navigation closes the suggestions.
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }

  useEffect(() => {
    const trimmed = term.trim();
    if (trimmed.length < MIN_TERM_LENGTH) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchSuggest(trimmed, 5, controller.signal)
        .then((data) => {
          setSuggestions({ term: trimmed, result: data });
          setActive(-1);
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) {
            console.warn('search suggestions failed', error);
            setSuggestions({ term: trimmed, result: null });
          }
        });
    }, SUGGEST_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [term]);

  useEffect(() => {
    if (!open) return;
    const onDown = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const products: Product[] = result?.elements ?? [];
  const showList = open && term.trim().length >= MIN_TERM_LENGTH;

  function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = term.trim();
    if (active >= 0 && products[active]) {
      void navigate(localePath(productPath(products[active])));
    } else if (trimmed) {
      void navigate(`${localePath('/search')}?search=${encodeURIComponent(trimmed)}`);
    }
    setOpen(false);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' && products.length > 0) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % products.length);
    } else if (event.key === 'ArrowUp' && products.length > 0) {
      event.preventDefault();
      setActive((index) => (index <= 0 ? products.length - 1 : index - 1));
    } else if (event.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  }

  return (
    <form ref={rootRef} className="search-box" role="search" onSubmit={submit}>
      <label className="visually-hidden" htmlFor={`${listId}-input`}>
        {t('search.label')}
      </label>
      <svg className="search-box__icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
        <circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="m20 20-3.5-3.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <input
        id={`${listId}-input`}
        className="search-box__input"
        type="search"
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        placeholder={t('search.placeholder')}
        autoComplete="off"
        value={term}
        onChange={(event) => {
          setTerm(event.target.value);
          // Too short a term drops the old suggestions: a longer one waits for its own.
          if (event.target.value.trim().length < MIN_TERM_LENGTH) setSuggestions({ term: '', result: null });
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="visually-hidden">
        {t('search.submit')}
      </button>
      {showList && (
        <div className="search-box__panel">
          {loading && products.length === 0 ? (
            <p className="search-box__hint">{t('search.searching')}</p>
          ) : products.length === 0 ? (
            <p className="search-box__hint">{t('search.noSuggestions', { term: term.trim() })}</p>
          ) : (
            <>
              <ul id={listId} role="listbox" aria-label={t('search.suggestions')} className="search-box__list">
                {products.map((product, index) => (
                  <li
                    key={product.id}
                    id={`${listId}-${index}`}
                    role="option"
                    aria-selected={index === active}
                    className="search-box__option"
                  >
                    <Link to={localePath(productPath(product))} tabIndex={-1} onClick={() => setOpen(false)}>
                      {product.cover?.media?.url ? (
                        <img src={product.cover.media.url} alt="" width="40" height="40" loading="lazy" />
                      ) : (
                        <span className="search-box__thumb" aria-hidden="true" />
                      )}
                      <span className="search-box__name">{product.translated?.name || product.name}</span>
                      <span className="search-box__price">{formatPrice(product.calculatedPrice?.totalPrice)}</span>
                    </Link>
                  </li>
                ))}
              </ul>
              <Link
                className="search-box__all"
                to={`${localePath('/search')}?search=${encodeURIComponent(term.trim())}`}
                onClick={() => setOpen(false)}
              >
                {t('search.showAll', { count: result?.total ?? products.length })}
              </Link>
            </>
          )}
        </div>
      )}
    </form>
  );
}
