import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { useLocalePath } from '@/lib/i18n';

/** The live presentation's frame: a slim top bar and the room. */
export function PresentationLayout() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  return (
    <>
      <header className="topbar">
        <Link className="topbar__brand" to={localePath('/') || '/'}>
          {t('app.name')}
        </Link>
      </header>
      <main className="page">
        <Outlet />
      </main>
    </>
  );
}
