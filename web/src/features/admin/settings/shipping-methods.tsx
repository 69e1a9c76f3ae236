import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/form';
import { notify } from '@/lib/ui/notifications';
import { useAdminApi } from '../api/context';
import { errorText } from '../api/errors';
import { Notice } from '../components/admin-page';
import { FormMessages } from '../components/form-messages';
import { numberOrUndefined } from '../components/form-fields';
import { useEntityForm } from '../components/use-entity-form';
import { germanPayload, germanText, useGermanLanguageId } from '../catalogue/languages';
import type { Translation } from '../catalogue/types';
import { formatMoney } from '../orders/money';
import { localName } from './local-name';
import { ActiveCell, OrderCell } from './method-cells';
import { moved } from './ordering';
import { shippingPrices, shippingPricesPayload, type ShippingPrice } from './shipping-prices';

interface ShippingMethod {
  id: string;
  name: string | null;
  technicalName?: string | null;
  active: boolean;
  position: number;
  prices?: ShippingPrice[] | null;
  translations?: Translation[];
}

interface Draft {
  id: string;
  name: string;
  nameDe: string;
  price: string;
  freeFrom: string;
}

/** Shipping methods: active or not, their order, names per language, the costs and from which order value they are free. */
export function ShippingMethods() {
  const { t, i18n } = useTranslation();
  const api = useAdminApi();
  const germanId = useGermanLanguageId();
  const [list, setList] = useState<ShippingMethod[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const form = useEntityForm(['name', 'prices/0/currencyPrice/0/gross', 'prices/1/quantityStart']);

  const load = useCallback(
    () =>
      api
        .search<ShippingMethod>('shipping-method', { limit: 100, sort: [{ field: 'position' }], associations: { prices: {} } })
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

  const name = (method: ShippingMethod) => localName(method, germanId, i18n.language, method.technicalName ?? method.id);
  const money = (value: number | null) => formatMoney(value, 'EUR', i18n.language);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    const ok = await form.run(() =>
      api.patch('shipping-method', draft.id, {
        name: draft.name.trim(),
        ...germanPayload({ name: draft.nameDe }),
        prices: shippingPricesPayload(numberOrUndefined(draft.price), numberOrUndefined(draft.freeFrom), list?.find((method) => method.id === draft.id)?.prices ?? []),
      }),
    );
    if (ok) {
      setDraft(null);
      await load();
    }
  };

  return (
    <section aria-labelledby="settings-shipping">
      <h2 id="settings-shipping">{t('admin.settings.shippingMethods.title')}</h2>
      <p className="muted">{t('admin.settings.shippingMethods.hint')}</p>
      {error && <Notice>{error}</Notice>}
      {!list && !error && (
        <p className="muted" role="status">
          {t('admin.common.loading')}
        </p>
      )}
      {list && list.length === 0 && <p className="admin-empty">{t('admin.settings.shippingMethods.none')}</p>}
      {list && list.length > 0 && (
        <div className="admin-table-scroll">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('admin.settings.shippingMethods.name')}</th>
              <th scope="col">{t('admin.settings.shippingMethods.price')}</th>
              <th scope="col">{t('admin.settings.active')}</th>
              <th scope="col">{t('admin.settings.order')}</th>
              <th scope="col">{t('admin.common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {[...list]
              .sort((a, b) => a.position - b.position)
              .map((method, index, sorted) => {
                const { price, freeFrom } = shippingPrices(method.prices ?? []);
                return (
                  <tr key={method.id}>
                    <td>{name(method)}</td>
                    <td>
                      {money(price)}
                      {freeFrom !== null && (
                        <>
                          <br />
                          <span className="muted">{t('admin.settings.shippingMethods.free', { amount: money(freeFrom) })}</span>
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
                          () => api.patch('shipping-method', method.id, { active: !method.active }),
                          method.active ? t('admin.settings.deactivated', { name: name(method) }) : t('admin.settings.activated', { name: name(method) }),
                        )
                      }
                    />
                    <OrderCell
                      name={name(method)}
                      index={index}
                      count={sorted.length}
                      busy={busy !== null}
                      onMove={(step) =>
                        void run(`move:${method.id}`, () => api.sync({ 'order-shipping-methods': { entity: 'shipping_method', action: 'upsert', payload: moved(sorted, method.id, step) } }), t('admin.common.saved'))
                      }
                    />
                    <td>
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => {
                          form.reset();
                          setDraft({
                            id: method.id,
                            name: method.name ?? '',
                            nameDe: germanText(method.translations, germanId, 'name'),
                            price: price === null ? '' : String(price),
                            freeFrom: freeFrom === null ? '' : String(freeFrom),
                          });
                        }}
                      >
                        {t('admin.common.edit')}
                      </button>
                    </td>
                  </tr>
                );
              })}
          </tbody>
        </table>
        </div>
      )}
      {draft && (
        <form className="admin-form" onSubmit={(event) => void save(event)} noValidate>
          <fieldset>
            <legend>{t('admin.settings.shippingMethods.editTitle')}</legend>
            <FormMessages lines={form.general} />
            <Field label={t('admin.common.nameEn')} value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.target.value })} error={form.errors.name} required />
            <Field label={t('admin.common.nameDe')} lang="de" value={draft.nameDe} onChange={(event) => setDraft({ ...draft, nameDe: event.target.value })} />
            <Field
              label={t('admin.settings.shippingMethods.price')}
              inputMode="decimal"
              value={draft.price}
              onChange={(event) => setDraft({ ...draft, price: event.target.value })}
              error={form.errors['prices/0/currencyPrice/0/gross']}
              required
            />
            <Field
              label={t('admin.settings.shippingMethods.freeFrom')}
              hint={t('admin.settings.shippingMethods.freeFromHint')}
              inputMode="decimal"
              value={draft.freeFrom}
              onChange={(event) => setDraft({ ...draft, freeFrom: event.target.value })}
              error={form.errors['prices/1/quantityStart']}
            />
            <div className="admin-toolbar field--wide">
              <button type="submit" className="button button--primary" disabled={form.busy} aria-busy={form.busy}>
                {form.busy ? t('admin.common.working') : t('admin.common.save')}
              </button>
              <button type="button" className="button" onClick={() => setDraft(null)}>
                {t('admin.common.cancel')}
              </button>
            </div>
          </fieldset>
        </form>
      )}
    </section>
  );
}
