import { useTranslation } from 'react-i18next';
import { AdminPage } from '../components/admin-page';

export function UsersPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t('admin.users.title')}>
      <p className="muted">{t('admin.common.comingSoon')}</p>
    </AdminPage>
  );
}
