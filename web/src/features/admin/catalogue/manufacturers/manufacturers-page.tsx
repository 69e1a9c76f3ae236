import { useTranslation } from 'react-i18next';
import { AdminPage } from '../../components/admin-page';

export function ManufacturersPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t('admin.manufacturers.title')}>
      <p className="muted">{t('admin.common.comingSoon')}</p>
    </AdminPage>
  );
}
