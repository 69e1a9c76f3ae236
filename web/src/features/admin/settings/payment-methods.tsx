import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/ui/notifications';
import { useAdminApi } from '../api/context';
import { errorText } from '../api/errors';
import { Notice } from '../components/admin-page';
import { useGermanLanguageId } from '../catalogue/languages';
import type { Translation } from '../catalogue/types';
import { localName } from './local-name';
import { ActiveCell, OrderCell } from './method-cells';
import { moved } from './ordering';

interface PaymentMethod {
  id: string;
  translations?: Translation[] | null;
  name: string | null;
  description?: string | null;
  technicalName?: string | null;
  active: boolean;
  position: number;
}

/** Payment methods: switch each on or off and put them in the order the checkout offers them. */
export function PaymentMethods() {
  const { t, i18n } = useTranslation();
  const api = useAdminApi();
  const germanId = useGermanLanguageId();
  const [list, setList] = useState<PaymentMethod[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(
    () =>
      api
        .search<PaymentMethod>('payment-method', { limit: 100, sort: [{ field: 'position' }] })
        .then((answer) => (setList(answer.data), setError(null)))
        .catch((failure: unknown) => setError(errorText(failure, t('admin.common.failed')))),
    [api, t],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const run = async (key: string, work: () => Promise<unknown>, done: string) => {
    setBusy(key);
    setError(null);
    try {
      await work();
      notify(done, { type: 'success' });
      await load();
    } catch (failure) {
      setError(errorText(failure, t('admin.common.failed')));
    } finally {
      setBusy(null);
    }
  };

  const move = (method: PaymentMethod, step: -1 | 1) => {
    const changes = moved(list ?? [], method.id, step);
    if (!changes.length) return;
    void run(`move:${method.id}`, () => api.sync({ 'order-payment-methods': { entity: 'payment_method', action: 'upsert', payload: changes } }), t('admin.common.saved'));
  };

  const description = (method: PaymentMethod) =>
    (i18n.language.startsWith('de') && germanId ? method.translations?.find((entry) => entry.languageId === germanId)?.description : null) || method.description;
  const name = (method: PaymentMethod) => localName(method, germanId, i18n.language, method.technicalName ?? method.id);

  return (
    <section aria-labelledby="settings-payment">
      <h2 id="settings-payment">{t('admin.settings.payment.title')}</h2>
      <p className="muted">{t('admin.settings.payment.hint')}</p>
      {error && <Notice>{error}</Notice>}
      {!list && !error && (
        <p className="muted" role="status">
          {t('admin.common.loading')}
        </p>
      )}
      {list && list.length === 0 && <p className="admin-empty">{t('admin.settings.payment.none')}</p>}
      {list && list.length > 0 && (
        <div className="admin-table-scroll">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('admin.settings.payment.name')}</th>
              <th scope="col">{t('admin.settings.active')}</th>
              <th scope="col">{t('admin.settings.order')}</th>
            </tr>
          </thead>
          <tbody>
            {[...list]
              .sort((a, b) => a.position - b.position)
              .map((method, index, sorted) => (
                <tr key={method.id}>
                  <td>
                    {name(method)}
                    {description(method) && (
                      <>
                        <br />
                        <span className="muted">{description(method)}</span>
                      </>
                    )}
                  </td>
                  <ActiveCell
                    name={name(method)}
                    active={method.active}
                    busy={busy !== null}
                    working={busy === `active:${method.id}`}
                    onToggle={() =>
                      void run(
                        `active:${method.id}`,
                        () => api.patch('payment-method', method.id, { active: !method.active }),
                        method.active ? t('admin.settings.deactivated', { name: name(method) }) : t('admin.settings.activated', { name: name(method) }),
                      )
                    }
                  />
                  <OrderCell name={name(method)} index={index} count={sorted.length} busy={busy !== null} onMove={(step) => move(method, step)} />
                </tr>
              ))}
          </tbody>
        </table>
        </div>
      )}
    </section>
  );
}
