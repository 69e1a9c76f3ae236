import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/form';
import { useAdminApi } from '../../api/context';
import { errorText } from '../../api/errors';
import { AdminPage, Notice } from '../../components/admin-page';
import { FormMessages } from '../../components/form-messages';
import { useEntityForm } from '../../components/use-entity-form';
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
  const api = useAdminApi();
  const germanId = useGermanLanguageId();
  const [list, setList] = useState<Manufacturer[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft>(BLANK);
  const form = useEntityForm(['name', 'link']);

  const load = useCallback(
    () =>
      api
        .search<Manufacturer>('product-manufacturer', { limit: 500, sort: [{ field: 'name' }] })
        .then((answer) => setList(answer.data))
        .catch((failure: unknown) => setLoadError(errorText(failure, t('admin.common.failed')))),
    [api, t],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { name: draft.name.trim(), link: draft.link.trim() || null, ...germanPayload({ name: draft.nameDe }) };
    const ok = await form.run(async () => {
      if (draft.id) await api.patch('product-manufacturer', draft.id, body);
      else await api.create('product-manufacturer', body);
    });
    if (ok) {
      setDraft(BLANK);
      await load();
    }
  };

  const remove = async (manufacturer: Manufacturer) => {
    if (!window.confirm(t('admin.common.confirmDelete', { name: manufacturer.name ?? '' }))) return;
    if (await form.run(() => api.remove('product-manufacturer', manufacturer.id), t('admin.common.deleted'))) await load();
  };

  return (
    <AdminPage title={t('admin.manufacturers.title')}>
      {loadError && <Notice>{loadError}</Notice>}
      <div className="admin-split">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('admin.products.name')}</th>
              <th scope="col">{t('admin.common.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {list.map((manufacturer) => (
              <tr key={manufacturer.id}>
                <td>{manufacturer.name}</td>
                <td>
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => {
                      form.reset();
                      setDraft({ id: manufacturer.id, name: manufacturer.name ?? '', nameDe: germanText(manufacturer.translations, germanId, 'name'), link: manufacturer.link ?? '' });
                    }}
                  >
                    {t('admin.common.edit')}
                  </button>
                  <button type="button" className="link-button link-button--danger" onClick={() => void remove(manufacturer)}>
                    {t('admin.common.delete')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <form className="admin-form" onSubmit={(event) => void submit(event)} noValidate>
          <fieldset>
            <legend>{draft.id ? t('admin.manufacturers.editTitle') : t('admin.manufacturers.newTitle')}</legend>
            <FormMessages lines={form.general} />
            <Field label={t('admin.common.nameEn')} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={form.errors.name} required />
            <Field label={t('admin.common.nameDe')} lang="de" value={draft.nameDe} onChange={(e) => setDraft({ ...draft, nameDe: e.target.value })} />
            <Field label={t('admin.manufacturers.link')} type="url" value={draft.link} onChange={(e) => setDraft({ ...draft, link: e.target.value })} error={form.errors.link} />
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
      </div>
    </AdminPage>
  );
}
