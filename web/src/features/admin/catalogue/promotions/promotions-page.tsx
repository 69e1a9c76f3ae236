import { useTranslation } from 'react-i18next';
import { AdminPage } from '../../components/admin-page';

export function PromotionsPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t('admin.promotions.title')}>
      <p className="muted">{t('admin.common.comingSoon')}</p>
    </AdminPage>
  );
}
