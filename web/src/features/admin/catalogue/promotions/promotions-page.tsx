import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, SelectField } from '@/components/form';
import { useAdminApi } from '../../api/context';
import { errorText } from '../../api/errors';
import { AdminPage, Notice } from '../../components/admin-page';
import { numberOrUndefined } from '../../components/form-fields';
import { FormMessages } from '../../components/form-messages';
import { useEntityForm } from '../../components/use-entity-form';
import type { Promotion } from '../types';

interface Draft {
  id: string | null;
  name: string;
  code: string;
  type: 'percentage' | 'absolute';
  value: string;
  validFrom: string;
  validUntil: string;
  limit: string;
  active: boolean;
}

const BLANK: Draft = { id: null, name: '', code: '', type: 'percentage', value: '', validFrom: '', validUntil: '', limit: '', active: true };

/** An ISO time as a `datetime-local` value in the browser's time zone, and back. */
const toLocalInput = (iso: string | null) => {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : null);

/** Promotions: a code with a percent or fixed discount on the cart, a validity window and a usage limit. */
export function PromotionsPage() {
  const { t, i18n } = useTranslation();
  const api = useAdminApi();
  const [list, setList] = useState<Promotion[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft>(BLANK);
  const form = useEntityForm(['name', 'code', 'discounts/0/value', 'discounts/0/type', 'validFrom', 'validUntil', 'maxRedemptionsGlobal']);

  const load = useCallback(
    () =>
      api
        .search<Promotion>('promotion', { limit: 500, sort: [{ field: 'name' }] })
        .then((answer) => setList(answer.data))
        .catch((failure: unknown) => setLoadError(errorText(failure, t('admin.common.failed')))),
    [api, t],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      name: draft.name.trim(),
      code: draft.code.trim(),
      useCodes: true,
      active: draft.active,
      validFrom: fromLocalInput(draft.validFrom),
      validUntil: fromLocalInput(draft.validUntil),
      maxRedemptionsGlobal: numberOrUndefined(draft.limit) ?? null,
      discounts: [{ type: draft.type, value: numberOrUndefined(draft.value) ?? null, scope: 'cart' }],
    };
    const ok = await form.run(async () => {
      if (draft.id) await api.patch('promotion', draft.id, body);
      else await api.create('promotion', body);
    });
    if (ok) {
      setDraft(BLANK);
      await load();
    }
  };

  const remove = async (promotion: Promotion) => {
    if (!window.confirm(t('admin.common.confirmDelete', { name: promotion.name ?? '' }))) return;
    if (await form.run(() => api.remove('promotion', promotion.id), t('admin.common.deleted'))) await load();
  };

  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : '…');
  const discount = (promotion: Promotion) => {
    const first = promotion.discounts?.[0];
    if (!first) return '';
    return first.type === 'percentage' ? `${first.value} %` : `${first.value} (${t('admin.promotions.absolute')})`;
  };

  return (
    <AdminPage title={t('admin.promotions.title')}>
      {loadError && <Notice>{loadError}</Notice>}
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">{t('admin.promotions.name')}</th>
            <th scope="col">{t('admin.promotions.code')}</th>
            <th scope="col">{t('admin.promotions.value')}</th>
            <th scope="col">{t('admin.promotions.window')}</th>
            <th scope="col">{t('admin.promotions.usageLimit')}</th>
            <th scope="col">{t('admin.products.status')}</th>
            <th scope="col">{t('admin.common.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {list.map((promotion) => (
            <tr key={promotion.id}>
              <td>{promotion.name}</td>
              <td>
                <code>{promotion.code}</code>
              </td>
              <td>{discount(promotion)}</td>
              <td>{promotion.validFrom || promotion.validUntil ? `${date(promotion.validFrom)} – ${date(promotion.validUntil)}` : t('admin.promotions.always')}</td>
              <td>{promotion.maxRedemptionsGlobal ?? '–'}</td>
              <td>{promotion.active ? t('admin.common.active') : t('admin.common.inactive')}</td>
              <td>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    form.reset();
                    const first = promotion.discounts?.[0];
                    setDraft({
                      id: promotion.id,
                      name: promotion.name ?? '',
                      code: promotion.code ?? '',
                      type: first?.type === 'absolute' ? 'absolute' : 'percentage',
                      value: first ? String(first.value) : '',
                      validFrom: toLocalInput(promotion.validFrom),
                      validUntil: toLocalInput(promotion.validUntil),
                      limit: promotion.maxRedemptionsGlobal === null ? '' : String(promotion.maxRedemptionsGlobal),
                      active: promotion.active,
                    });
                  }}
                >
                  {t('admin.common.edit')}
                </button>
                <button type="button" className="link-button link-button--danger" onClick={() => void remove(promotion)}>
                  {t('admin.common.delete')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="admin-form" onSubmit={(event) => void submit(event)} noValidate>
        <fieldset>
          <legend>{draft.id ? t('admin.promotions.editTitle') : t('admin.promotions.newTitle')}</legend>
          <FormMessages lines={form.general} />
          <Field label={t('admin.promotions.name')} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={form.errors.name} required />
          <Field label={t('admin.promotions.code')} value={draft.code} onChange={(e) => setDraft({ ...draft, code: e.target.value })} error={form.errors.code} required />
          <SelectField
            label={t('admin.promotions.discountType')}
            value={draft.type}
            onChange={(e) => setDraft({ ...draft, type: e.target.value as Draft['type'] })}
            error={form.errors['discounts/0/type']}
            options={[
              { value: 'percentage', label: t('admin.promotions.percentage') },
              { value: 'absolute', label: t('admin.promotions.absolute') },
            ]}
          />
          <Field label={t('admin.promotions.value')} inputMode="decimal" value={draft.value} onChange={(e) => setDraft({ ...draft, value: e.target.value })} error={form.errors['discounts/0/value']} required />
          <Field label={t('admin.promotions.validFrom')} type="datetime-local" value={draft.validFrom} onChange={(e) => setDraft({ ...draft, validFrom: e.target.value })} error={form.errors.validFrom} />
          <Field label={t('admin.promotions.validUntil')} type="datetime-local" value={draft.validUntil} onChange={(e) => setDraft({ ...draft, validUntil: e.target.value })} error={form.errors.validUntil} />
          <Field label={t('admin.promotions.usageLimit')} type="number" min={1} step={1} value={draft.limit} onChange={(e) => setDraft({ ...draft, limit: e.target.value })} error={form.errors.maxRedemptionsGlobal} />
          <Field label={t('admin.promotions.active')} type="checkbox" checked={draft.active} onChange={(e) => setDraft({ ...draft, active: e.target.checked })} />
          <div className="admin-toolbar field--wide">
            <button type="submit" className="button button--primary" disabled={form.busy}>
              {draft.id ? t('admin.common.save') : t('admin.common.create')}
            </button>
            {draft.id && (
              <button type="button" className="button" onClick={() => setDraft(BLANK)}>
                {t('admin.common.cancel')}
              </button>
            )}
          </div>
        </fieldset>
      </form>
    </AdminPage>
  );
}
