import { useTranslation } from 'react-i18next';
import { AdminPage } from '../../components/admin-page';

export function ImportPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t('admin.import.title')}>
      <p className="muted">{t('admin.common.comingSoon')}</p>
    </AdminPage>
  );
}
