import { useTranslation } from 'react-i18next';
import { AdminPage } from '../components/admin-page';

/** Appointments (h16dsr builds this page: list, editor, invitations). */
export function AppointmentsPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t('admin.appointments.title')}>
      <p className="muted">{t('admin.common.comingSoon')}</p>
    </AdminPage>
  );
}
