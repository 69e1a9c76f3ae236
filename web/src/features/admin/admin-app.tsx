import './admin-app.css';
import './admin-sales.css';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, Outlet, Route, Routes, useLocation, useNavigate } from 'react-router';
import { LocaleSwitcher } from '@/components/locale-switcher';
import { useLocalePath } from '@/lib/i18n';
import { addAdminTexts } from './admin-texts';
import { AdminApiProvider, useAdminApi, useAdminSession } from './api/context';
import { AppointmentsPage } from './appointments/appointments-page';
import { RequireAdmin, RequireSession } from './auth/guards';
import { LoginPage } from './auth/login-page';
import { LegalPagesPage } from './legal/legal-pages-page';
import { CategoriesPage } from './catalogue/categories/categories-page';
import { CustomersPage } from './customers/customers-page';
import { DashboardPage } from './dashboard/dashboard-page';
import { ImportPage } from './catalogue/import/import-page';
import { ManufacturersPage } from './catalogue/manufacturers/manufacturers-page';
import { ProductEditor } from './catalogue/products/product-editor';
import { ProductList } from './catalogue/products/product-list';
import { PromotionsPage } from './catalogue/promotions/promotions-page';
import { useAdminPath } from './components/admin-path';
import { OrdersPage } from './orders/orders-page';
import { PresentationsPage } from './presentations/presentations-page';
import { SettingsPage } from './settings/settings-page';
import { UsersPage } from './users/users-page';

addAdminTexts();

/** The side navigation's entries, in order; `adminOnly` ones are hidden from guides. */
const NAV = [
  { path: 'dashboard', key: 'admin.nav.dashboard' },
  { path: 'orders', key: 'admin.nav.orders', adminOnly: true },
  { path: 'customers', key: 'admin.nav.customers', adminOnly: true },
  { path: 'appointments', key: 'admin.nav.appointments' },
  { path: 'presentations', key: 'admin.nav.presentations' },
  { path: 'products', key: 'admin.nav.products' },
  { path: 'categories', key: 'admin.nav.categories' },
  { path: 'manufacturers', key: 'admin.nav.manufacturers' },
  { path: 'promotions', key: 'admin.nav.promotions' },
  { path: 'import', key: 'admin.nav.import' },
  { path: 'users', key: 'admin.nav.users', adminOnly: true },
  { path: 'legal', key: 'admin.legal.nav', adminOnly: true },
] as const;

/** The frame of every page after login: side navigation, who is logged in, the page (outlet). */
function AdminLayout() {
  const { t } = useTranslation();
  const api = useAdminApi();
  const session = useAdminSession();
  const adminPath = useAdminPath();
  const localePath = useLocalePath();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  // A new page: focus its heading, so keyboard and screen reader users start there.
  useEffect(() => {
    document.getElementById('admin-page-title')?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <div className="admin-shell">
      <a className="admin-skip" href="#admin-main">
        {t('admin.skipToContent')}
      </a>
      <aside className="admin-shell__side">
        <p className="admin-shell__brand">{t('admin.title')}</p>
        <nav aria-label={t('admin.nav.label')}>
          <ul className="admin-nav">
            {NAV.filter((entry) => !('adminOnly' in entry) || session?.role === 'admin').map((entry) => (
              <li key={entry.path}>
                <NavLink to={adminPath(entry.path)} className="admin-nav__link">
                  {t(entry.key)}
                </NavLink>
              </li>
            ))}
            <li>
              <a className="admin-nav__link" href={localePath('/')}>
                {t('admin.nav.storefront')}
              </a>
            </li>
          </ul>
        </nav>
        <div className="admin-shell__user">
          <p>
            {t('admin.auth.loggedInAs', { name: session?.username ?? '' })}
            <br />
            <span className="muted">{session?.role === 'admin' ? t('admin.auth.roleAdmin') : t('admin.auth.roleGuide')}</span>
          </p>
          <LocaleSwitcher />
          <button
            type="button"
            className="button button--small"
            onClick={() => {
              api.logout();
              void navigate(adminPath('login'));
            }}
          >
            {t('admin.auth.logOut')}
          </button>
        </div>
      </aside>
      <main className="admin-shell__main" id="admin-main">
        <Outlet />
      </main>
    </div>
  );
}

/**
 * `/admin/*` (and `/de-DE/admin/*`): the merchant backoffice, one lazy chunk
 * (app/router.tsx). Pages of a domain live in its folder; a new page is a `<Route>` here
 * and, if it belongs in the navigation, an entry of `NAV`.
 */
export function AdminApp() {
  return (
    <AdminApiProvider>
      <Routes>
        <Route path="login" element={<LoginPage />} />
        <Route
          element={
            <RequireSession>
              <AdminLayout />
            </RequireSession>
          }
        >
          <Route index element={<Navigate to="dashboard" replace />} />
          <Route path="dashboard" element={<DashboardPage />} />
          {/* The shop after the show: orders, customers, settings (admins only). */}
          <Route path="orders/*" element={<RequireAdmin><OrdersPage /></RequireAdmin>} />
          <Route path="customers/*" element={<RequireAdmin><CustomersPage /></RequireAdmin>} />
          <Route path="settings/*" element={<RequireAdmin><SettingsPage /></RequireAdmin>} />
          {/* h16dsr: appointments and presentations (each may have its own nested <Routes>). */}
          <Route path="appointments/*" element={<AppointmentsPage />} />
          <Route path="presentations/*" element={<PresentationsPage />} />
          {/* Catalogue */}
          <Route path="products" element={<ProductList />} />
          <Route path="products/new" element={<ProductEditor />} />
          <Route path="products/:id" element={<ProductEditor />} />
          <Route path="categories" element={<CategoriesPage />} />
          <Route path="manufacturers" element={<ManufacturersPage />} />
          <Route path="promotions" element={<PromotionsPage />} />
          <Route path="import" element={<ImportPage />} />
          <Route path="legal" element={<LegalPagesPage />} />
          <Route
            path="users"
            element={
              <RequireAdmin>
                <UsersPage />
              </RequireAdmin>
            }
          />
          <Route path="*" element={<Navigate to="dashboard" replace />} />
        </Route>
      </Routes>
    </AdminApiProvider>
  );
}
