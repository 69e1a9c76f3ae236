import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useStore } from 'zustand';
import { useLocalePath } from '@/lib/i18n';
import { navigationEntryLink } from '@/lib/shop/paths';
import type { NavigationCategory } from '../api/get-main-navigation';
import { navigationStore } from '../stores/navigation';
import './category-navigation.css';

function Tree({ items, depth }: { items: NavigationCategory[]; depth: number }) {
  const localePath = useLocalePath();
  return (
    <ul className={`category-nav__list category-nav__list--${depth}`}>
      {items.map((entry) => {
        const link = navigationEntryLink(entry);
        const name = entry.translated?.name || entry.name;
        return (
          <li key={entry.id}>
            {link && !link.external ? (
              <NavLink className={({ isActive }) => (isActive ? 'category-nav__link is-active text-brand-primary' : 'category-nav__link')} to={localePath(link.to)} end>
                {name}
              </NavLink>
            ) : link ? (
              <a className="category-nav__link" href={link.to} rel="noopener noreferrer">
                {name}
              </a>
            ) : (
              <span className="category-nav__link">{name}</span>
            )}
            {(entry.children ?? []).length > 0 && <Tree items={entry.children ?? []} depth={depth + 1} />}
          </li>
        );
      })}
    </ul>
  );
}

/** The category tree as a side menu (CMS element category-navigation). */
export function CategoryNavigation() {
  const { t, i18n } = useTranslation();
  const items = useStore(navigationStore, (state) => state.items);
  useEffect(() => {
    void navigationStore.getState().load(i18n.language);
  }, [i18n.language]);
  if (items.length === 0) return null;
  return (
    <nav className="category-nav" aria-label={t('cms.categories')}>
      <h2 className="category-nav__title">{t('cms.categories')}</h2>
      <Tree items={items} depth={0} />
    </nav>
  );
}
