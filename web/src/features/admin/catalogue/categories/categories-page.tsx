import { useTranslation } from 'react-i18next';
import { AdminPage } from '../../components/admin-page';

export function CategoriesPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t('admin.categories.title')}>
      <p className="muted">{t('admin.common.comingSoon')}</p>
    </AdminPage>
  );
}
