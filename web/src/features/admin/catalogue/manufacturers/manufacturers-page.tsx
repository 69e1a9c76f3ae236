import { useTranslation } from 'react-i18next';
import { Field } from '@/components/form';
import { AdminPage, Notice } from '../../components/admin-page';
import { EntityCrudForm, useEntityCrud } from '../../components/entity-crud';
import { EntityTable } from '../../components/entity-table';
import { germanPayload, germanText, useGermanLanguageId } from '../languages';
import type { Manufacturer } from '../types';

interface Draft {
  id: string | null;
  name: string;
  nameDe: string;
  link: string;
}

const BLANK: Draft = { id: null, name: '', nameDe: '', link: '' };

/** Manufacturers: list, create, edit (name per language, website), delete. */
export function ManufacturersPage() {
  const { t } = useTranslation();
  const germanId = useGermanLanguageId();
  const { list, loadError, draft, setDraft, form, remove, edit, formProps } = useEntityCrud<Manufacturer, Draft>({
    entity: 'product-manufacturer',
    sort: 'name',
    blank: BLANK,
    shownFields: ['name', 'link'],
    body: (current) => ({ name: current.name.trim(), link: current.link.trim() || null, ...germanPayload({ name: current.nameDe }) }),
  });

  return (
    <AdminPage title={t('admin.manufacturers.title')}>
      {loadError && <Notice>{loadError}</Notice>}
      <div className="admin-split">
        <EntityTable
          columns={[{ header: t('admin.products.name'), cell: (manufacturer) => manufacturer.name }]}
          rows={list}
          onEdit={(manufacturer) =>
            edit({ id: manufacturer.id, name: manufacturer.name ?? '', nameDe: germanText(manufacturer.translations, germanId, 'name'), link: manufacturer.link ?? '' })
          }
          onDelete={(manufacturer) => void remove(manufacturer)}
        />
        <EntityCrudForm
          legend={draft.id ? t('admin.manufacturers.editTitle') : t('admin.manufacturers.newTitle')}
          {...formProps}
        >
          <Field label={t('admin.common.nameEn')} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={form.errors.name} required />
          <Field label={t('admin.common.nameDe')} lang="de" value={draft.nameDe} onChange={(e) => setDraft({ ...draft, nameDe: e.target.value })} />
          <Field label={t('admin.manufacturers.link')} type="url" value={draft.link} onChange={(e) => setDraft({ ...draft, link: e.target.value })} error={form.errors.link} />
        </EntityCrudForm>
      </div>
    </AdminPage>
  );
}
