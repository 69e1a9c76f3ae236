import { useTranslation } from 'react-i18next';
import type { ConnectionState } from '@/protocol/generated';

export function ConnectionStatus({ state }: { state: ConnectionState }) {
  const { t } = useTranslation();
  return (
    <p className="connection" data-state={state} role="status" aria-label={t('connection.label')}>
      <span className="connection__dot" aria-hidden="true" />
      {t(`connection.${state}`)}
    </p>
  );
}
