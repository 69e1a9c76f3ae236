import { useTranslation } from 'react-i18next';
import { AdminPage } from '../components/admin-page';

/** Presentations (h16dsr builds this page: list, slide builder, preview). */
export function PresentationsPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t('admin.presentations.title')}>
      <p className="muted">{t('admin.common.comingSoon')}</p>
    </AdminPage>
  );
}
