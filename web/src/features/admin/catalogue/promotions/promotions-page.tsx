import { useTranslation } from 'react-i18next';
import { Field, SelectField } from '@/components/form';
import { formatDateTime } from '@/lib/format';
import { AdminPage, Notice } from '../../components/admin-page';
import { EntityCrudForm, useEntityCrud } from '../../components/entity-crud';
import { EntityTable } from '../../components/entity-table';
import { numberOrUndefined } from '../../components/form-fields';
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
  const { list, loadError, draft, setDraft, form, remove, edit, formProps } = useEntityCrud<Promotion, Draft>({
    entity: 'promotion',
    sort: 'name',
    blank: BLANK,
    shownFields: ['name', 'code', 'discounts/0/value', 'discounts/0/type', 'validFrom', 'validUntil', 'maxRedemptionsGlobal'],
    body: (current) => ({
      name: current.name.trim(),
      code: current.code.trim(),
      useCodes: true,
      active: current.active,
      validFrom: fromLocalInput(current.validFrom),
      validUntil: fromLocalInput(current.validUntil),
      maxRedemptionsGlobal: numberOrUndefined(current.limit) ?? null,
      discounts: [{ type: current.type, value: numberOrUndefined(current.value) ?? null, scope: 'cart' }],
    }),
  });

  const date = (iso: string | null) => formatDateTime(iso, { locale: i18n.language }) || '…';
  const discount = (promotion: Promotion) => {
    const first = promotion.discounts?.[0];
    if (!first) return '';
    return first.type === 'percentage' ? `${first.value} %` : `${first.value} (${t('admin.promotions.absolute')})`;
  };

  return (
    <AdminPage title={t('admin.promotions.title')}>
      {loadError && <Notice>{loadError}</Notice>}
      <EntityTable
        columns={[
          { header: t('admin.promotions.name'), cell: (promotion) => promotion.name },
          { header: t('admin.promotions.code'), cell: (promotion) => <code>{promotion.code}</code> },
          { header: t('admin.promotions.value'), cell: discount },
          {
            header: t('admin.promotions.window'),
            cell: (promotion) =>
              promotion.validFrom || promotion.validUntil ? `${date(promotion.validFrom)} – ${date(promotion.validUntil)}` : t('admin.promotions.always'),
          },
          { header: t('admin.promotions.usageLimit'), cell: (promotion) => promotion.maxRedemptionsGlobal ?? '–' },
          { header: t('admin.products.status'), cell: (promotion) => (promotion.active ? t('admin.common.active') : t('admin.common.inactive')) },
        ]}
        rows={list}
        onEdit={(promotion) => {
          const first = promotion.discounts?.[0];
          edit({
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
        onDelete={(promotion) => void remove(promotion)}
      />
      <EntityCrudForm
        legend={draft.id ? t('admin.promotions.editTitle') : t('admin.promotions.newTitle')}
        {...formProps}
      >
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
      </EntityCrudForm>
    </AdminPage>
  );
}
