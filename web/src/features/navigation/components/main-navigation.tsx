import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router';
import { useStore } from 'zustand';
import { useLocalePath } from '@/lib/i18n';
import { navigationEntryLink } from '@/lib/shop/paths';
import type { NavigationCategory } from '../api/get-main-navigation';
import { navigationStore } from '../stores/navigation';
import './main-navigation.css';

const nameOf = (entry: NavigationCategory) => entry.translated?.name || entry.name;

export function EntryLink({ entry, className, onNavigate }: { entry: NavigationCategory; className?: string; onNavigate?: () => void }) {
  const localePath = useLocalePath();
  const link = navigationEntryLink(entry);
  if (!link) return <span className={className}>{nameOf(entry)}</span>;
  if (link.external) {
    return (
      <a className={className} href={link.to} target={entry.linkNewTab ? '_blank' : undefined} rel="noopener noreferrer">
        {nameOf(entry)}
      </a>
    );
  }
  return (
    <NavLink
      className={({ isActive }) => [className, isActive ? 'is-active text-brand-primary' : ''].filter(Boolean).join(' ')}
      to={localePath(link.to)}
      onClick={onNavigate}
      end
    >
      {nameOf(entry)}
    </NavLink>
  );
}

function useNavigationTree() {
  const { i18n } = useTranslation();
  const state = useStore(navigationStore);
  useEffect(() => {
    void navigationStore.getState().load(i18n.language);
  }, [i18n.language]);
  return state;
}

/** The desktop category bar: top categories with a flyout of their children. */
export function MainNavigation() {
  const { t } = useTranslation();
  const { items, status } = useNavigationTree();
  const [open, setOpen] = useState<string | null>(null);
  const { pathname } = useLocation();
  // A navigation closes the flyout.
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(null);
  }

  if (status === 'loading' && items.length === 0) {
    return (
      <nav className="main-nav" aria-label={t('shop.mainNavigation')} aria-busy="true">
        <ul className="main-nav__list">
          {[0, 1, 2, 3, 4].map((index) => (
            <li key={index} className="skeleton skeleton--text main-nav__skeleton" />
          ))}
        </ul>
      </nav>
    );
  }
  return (
    <nav className="main-nav" aria-label={t('shop.mainNavigation')}>
      <ul className="main-nav__list">
        {items.map((entry) => {
          const children = entry.children ?? [];
          return (
            <li
              key={entry.id}
              className="main-nav__item"
              onMouseEnter={() => children.length > 0 && setOpen(entry.id)}
              onMouseLeave={() => setOpen(null)}
              onKeyDown={(event) => event.key === 'Escape' && setOpen(null)}
            >
              <EntryLink entry={entry} className="main-nav__link" />
              {children.length > 0 && (
                <>
                  <button
                    type="button"
                    className="main-nav__toggle"
                    aria-expanded={open === entry.id}
                    aria-label={nameOf(entry)}
                    onClick={() => setOpen(open === entry.id ? null : entry.id)}
                  >
                    <span aria-hidden="true">▾</span>
                  </button>
                  <div className="main-nav__flyout" hidden={open !== entry.id}>
                    <EntryLink entry={entry} className="main-nav__flyout-title" />
                    <ul>
                      {children.map((child) => (
                        <li key={child.id}>
                          <EntryLink entry={child} className="main-nav__flyout-link" />
                        </li>
                      ))}
                    </ul>
                  </div>
                </>
              )}
            </li>
          );
        })}
        <li className="main-nav__item main-nav__item--live">
          <LiveShoppingLink className="main-nav__link main-nav__link--live" />
        </li>
      </ul>
    </nav>
  );
}

/** The way into live shopping: the upcoming guided presentations (`/presentations`). */
function LiveShoppingLink({ className, onNavigate }: { className: string; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  return (
    <NavLink
      className={({ isActive }) => [className, isActive ? 'is-active' : ''].filter(Boolean).join(' ')}
      to={localePath('/presentations')}
      onClick={onNavigate}
      end
    >
      <span className="main-nav__live-dot" aria-hidden="true" />
      {t('shop.liveShopping')}
    </NavLink>
  );
}

/** The phone menu: a drawer with the whole tree. */
export function MobileNavigation() {
  const { t } = useTranslation();
  const { items } = useNavigationTree();
  const localePath = useLocalePath();
  const [open, setOpen] = useState(false);
  const { pathname } = useLocation();
  // A navigation closes the drawer.
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <>
      <button
        type="button"
        className="icon-button mobile-nav__toggle"
        aria-label={t('shop.openMenu')}
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
          <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
      </button>
      {open && (
        <div className="drawer-backdrop" onMouseDown={(event) => event.target === event.currentTarget && setOpen(false)}>
          <nav className="drawer" aria-label={t('shop.mainNavigation')}>
            <div className="drawer__header">
              <span className="drawer__title">{t('shop.menu')}</span>
              <button type="button" className="icon-button" aria-label={t('shop.closeMenu')} onClick={() => setOpen(false)} autoFocus>
                ×
              </button>
            </div>
            <ul className="drawer__list">
              <li>
                <Link className="drawer__link" to={localePath('/') || '/'}>
                  {t('shop.home')}
                </Link>
              </li>
              {items.map((entry) => (
                <li key={entry.id}>
                  <EntryLink entry={entry} className="drawer__link" onNavigate={() => setOpen(false)} />
                  {(entry.children ?? []).length > 0 && (
                    <ul className="drawer__sublist">
                      {(entry.children ?? []).map((child) => (
                        <li key={child.id}>
                          <EntryLink entry={child} className="drawer__sublink" onNavigate={() => setOpen(false)} />
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
              <li>
                <LiveShoppingLink className="drawer__link" onNavigate={() => setOpen(false)} />
              </li>
            </ul>
          </nav>
        </div>
      )}
    </>
  );
}
