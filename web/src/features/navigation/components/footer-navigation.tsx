import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { getFooterNavigation } from '../api/get-main-navigation';
import { footerNavigationStore } from '../stores/navigation';
import { EntryLink } from './main-navigation';

/** The footer's links to the shop's service pages: the children of the footer category, in the page's language. */
export function FooterNavigation({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const { items } = useStore(footerNavigationStore);
  useEffect(() => {
    void footerNavigationStore.getState().load(i18n.language, getFooterNavigation);
  }, [i18n.language]);
  if (items.length === 0) return null;
  return (
    <nav aria-label={t('shop.footerNavigation')}>
      <h2 className="footer__heading">{t('shop.footerNavigation')}</h2>
      <ul className={className}>
        {items.map((entry) => (
          <li key={entry.id}>
            <EntryLink entry={entry} />
          </li>
        ))}
      </ul>
    </nav>
  );
}
