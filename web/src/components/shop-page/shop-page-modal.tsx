import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { CmsPage } from '@/components/cms/cms-page';
import type { CmsPageData } from '@/components/cms/context';
import { Spinner } from '@/components/spinner';
import { loadShopPage } from '@/lib/shop/shop-pages';
import { modalStore } from '@/lib/ui/modal';

type Loaded = { status: 'loading' } | { status: 'ready'; page: CmsPageData } | { status: 'missing' } | { status: 'failed' };

const NO_ELEMENTS = { elements: {} };

/** The shop page's content: a spinner while loading, the page, or the 404 text when it is missing. */
function ShopPageContent({ name, onTitle }: { name: string; onTitle: (title: string) => void }) {
  const { t, i18n } = useTranslation();
  // What was loaded, for which page and language: another one is loading until it is there.
  const key = `${name}:${i18n.language}`;
  const [state, setState] = useState<{ key: string; loaded: Loaded } | null>(null);
  useEffect(() => {
    let current = true;
    loadShopPage(name)
      .then((page) => {
        if (!current) return;
        if (!page) return setState({ key, loaded: { status: 'missing' } });
        setState({ key, loaded: { status: 'ready', page } });
        const title = page.translated?.name || page.name;
        if (title) onTitle(title);
      })
      .catch(() => current && setState({ key, loaded: { status: 'failed' } }));
    return () => {
      current = false;
    };
  }, [name, key, onTitle]);
  const loaded: Loaded = state?.key === key ? state.loaded : { status: 'loading' };
  switch (loaded.status) {
    case 'loading':
      return <Spinner />;
    case 'missing':
      return <p>{t('errorPages.404')}</p>;
    case 'failed':
      return <p role="alert">{t('errors.generic')}</p>;
    case 'ready':
      return (
        <div className="shop-page" data-testid="shop-page">
          <CmsPage page={loaded.page} context={NO_ELEMENTS} />
        </div>
      );
  }
}

/**
 * Opens a shop page (privacy policy, terms, imprint) as the spec's shop-page modal: titled
 * with the page's name once loaded (a default details label before).
 */
export function openShopPage(name: string, t: TFunction): void {
  let id = 0;
  const onTitle = (title: string) =>
    modalStore.setState((state) => (state.modal && state.modal.id === id ? { modal: { ...state.modal, title } } : state));
  id = modalStore.getState().open(<ShopPageContent name={name} onTitle={onTitle} />, { title: t('legal.details'), size: 'large' });
}

/** A button that reads like a link and opens a shop page in the modal. */
export function ShopPageLink({ name, children, className = 'link-button' }: { name: string; children: ReactNode; className?: string }) {
  const { t } = useTranslation();
  return (
    <button type="button" className={className} onClick={() => openShopPage(name, t)}>
      {children}
    </button>
  );
}

/** The links to the three legal pages (footer, room menu). */
export function LegalLinks({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('legal.heading')}>
      <ul className={className}>
        {(['privacy', 'tos', 'imprint'] as const).map((name) => (
          <li key={name}>
            <ShopPageLink name={name}>{t(`legal.${name}`)}</ShopPageLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
