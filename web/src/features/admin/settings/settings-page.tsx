import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, Route, Routes } from 'react-router';
import { AdminPage } from '../components/admin-page';
import { useAdminPath } from '../components/admin-path';
import { PaymentMethods } from './payment-methods';
import { ShippingMethods } from './shipping-methods';
import { ShopBasics } from './shop-basics';
import { TaxRates } from './tax-rates';

const SECTIONS = [
  { path: 'shop', key: 'admin.settings.shop' },
  { path: 'shipping', key: 'admin.settings.shipping' },
  { path: 'payment', key: 'admin.settings.payment.title' },
  { path: 'taxes', key: 'admin.settings.taxes.title' },
] as const;

/** `/admin/settings/*`: the shop (name, sender, domains, languages), shipping, payment and tax rates, one section each. */
export function SettingsPage() {
  const { t } = useTranslation();
  const adminPath = useAdminPath();
  return (
    <AdminPage title={t('admin.settings.title')}>
      <nav aria-label={t('admin.settings.sections')}>
        <ul className="admin-tabs">
          {SECTIONS.map((section) => (
            <li key={section.path}>
              <NavLink to={adminPath(`settings/${section.path}`)} className="admin-tabs__link">
                {t(section.key)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Routes>
        <Route index element={<Navigate to="shop" replace />} />
        <Route path="shop" element={<ShopBasics />} />
        <Route path="shipping" element={<ShippingMethods />} />
        <Route path="payment" element={<PaymentMethods />} />
        <Route path="taxes" element={<TaxRates />} />
        <Route path="*" element={<Navigate to="shop" replace />} />
      </Routes>
    </AdminPage>
  );
}
