import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { LocaleSwitcher } from '@/components/locale-switcher';
import { LegalLinks } from '@/components/shop-page/shop-page-modal';
import { AccountLink } from '@/features/account/components/account-link';
import { CartButton, CartSidebar } from '@/features/cart/components/cart-sidebar';
import { WishlistLink } from '@/features/wishlist/components/wishlist-link';
import { FooterNavigation } from '@/features/navigation/components/footer-navigation';
import { MainNavigation, MobileNavigation } from '@/features/navigation/components/main-navigation';
import { SearchBox } from '@/features/search/components/search-box';
import { useLocalePath } from '@/lib/i18n';
import './default-layout.css';

/** The shop's frame: header with categories and search, the page, the footer. */
export function DefaultLayout() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  return (
    <div className="shop">
      <a className="skip-link" href="#main">
        {t('shop.skipToContent')}
      </a>
      <header className="header">
        <div className="container header__row">
          <MobileNavigation />
          <Link className="brand" to={localePath('/') || '/'}>
            <span className="brand__mark" aria-hidden="true">
              S
            </span>
            {t('app.name')}
          </Link>
          <SearchBox />
          <div className="header__actions">
            <div className="header__locale">
              <LocaleSwitcher />
            </div>
            <AccountLink />
            <WishlistLink />
            <CartButton />
          </div>
        </div>
        <div className="header__nav">
          <div className="container">
            <MainNavigation />
          </div>
        </div>
      </header>
      <main id="main" className="shop__main" tabIndex={-1}>
        <Outlet />
      </main>
      <CartSidebar />
      <footer className="footer">
        <div className="container footer__grid">
          <div>
            <p className="brand brand--footer">{t('app.name')}</p>
            <p className="footer__muted">{t('shop.tagline')}</p>
          </div>
          <div>
            <h2 className="footer__heading">{t('shop.footerService')}</h2>
            <ul className="footer__list">
              <li>{t('shop.footerShipping')}</li>
              <li>{t('shop.footerReturns')}</li>
              <li>{t('shop.footerSupport')}</li>
            </ul>
          </div>
          <FooterNavigation className="footer__list footer__links" />
          <div>
            <h2 className="footer__heading">{t('legal.heading')}</h2>
            <LegalLinks className="footer__list footer__links" />
          </div>
        </div>
        <div className="container footer__bottom">
          <span>{t('shop.copyright', { year: new Date().getFullYear() })}</span>
          <LocaleSwitcher />
        </div>
      </footer>
    </div>
  );
}
