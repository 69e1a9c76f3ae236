import { useTranslation } from 'react-i18next';
import './unresolved.css';

/** Stands in for a block or element type this shop cannot show. */
export function Unresolved({ component }: { component: string }) {
  const { t } = useTranslation();
  return (
    <div className="cms-unresolved" role="note">
      {t('errorPages.unknownComponent', { component })}
    </div>
  );
}
