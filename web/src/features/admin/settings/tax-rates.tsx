import { useTranslation } from 'react-i18next';
import { Field } from '@/components/form';
import { Notice } from '../components/admin-page';
import { EntityCrudForm, useEntityCrud } from '../components/entity-crud';
import { EntityTable } from '../components/entity-table';
import { numberOrUndefined } from '../components/form-fields';
import { formatRate } from '../orders/money';

interface Tax {
  id: string;
  name: string;
  taxRate: number;
  position?: number;
}

interface Draft {
  id: string | null;
  name: string;
  rate: string;
}

const BLANK: Draft = { id: null, name: '', rate: '' };

/** Tax rates: list, create, edit (name and rate), delete (refused while products use the rate). */
export function TaxRates() {
  const { t, i18n } = useTranslation();
  const { list, loaded, loadError, draft, setDraft, form, remove, edit, formProps } = useEntityCrud<Tax, Draft>({
    entity: 'tax',
    sort: 'taxRate',
    blank: BLANK,
    shownFields: ['name', 'taxRate'],
    body: (current) => ({ name: current.name.trim(), taxRate: numberOrUndefined(current.rate) ?? null }),
  });

  return (
    <section aria-labelledby="settings-taxes">
      <h2 id="settings-taxes">{t('admin.settings.taxes.title')}</h2>
      {loadError && <Notice>{loadError}</Notice>}
      <div className="admin-split">
        {!loaded ? (
          <p className="muted" role="status">
            {t('admin.common.loading')}
          </p>
        ) : list.length === 0 && !loadError ? (
          <p className="admin-empty">{t('admin.settings.taxes.none')}</p>
        ) : (
          <EntityTable
            columns={[
              { header: t('admin.settings.taxes.name'), cell: (tax) => tax.name },
              { header: t('admin.settings.taxes.rate'), cell: (tax) => formatRate(tax.taxRate, i18n.language) },
            ]}
            rows={list}
            onEdit={(tax) => edit({ id: tax.id, name: tax.name, rate: String(tax.taxRate) })}
            onDelete={(tax) => void remove(tax)}
          />
        )}
        <EntityCrudForm legend={draft.id ? t('admin.settings.taxes.editTitle') : t('admin.settings.taxes.newTitle')} {...formProps}>
          <Field label={t('admin.settings.taxes.name')} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={form.errors.name} required />
          <Field
            label={t('admin.settings.taxes.rateInput')}
            inputMode="decimal"
            value={draft.rate}
            onChange={(e) => setDraft({ ...draft, rate: e.target.value })}
            error={form.errors.taxRate}
            required
          />
        </EntityCrudForm>
      </div>
    </section>
  );
}
