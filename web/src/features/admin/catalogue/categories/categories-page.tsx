import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, SelectField } from '@/components/form';
import { useAdminApi } from '../../api/context';
import { errorText } from '../../api/errors';
import { AdminPage, Notice } from '../../components/admin-page';
import { FormMessages } from '../../components/form-messages';
import { useEntityForm } from '../../components/use-entity-form';
import { germanPayload, germanText, useDisplayName, useGermanLanguageId } from '../languages';
import type { Category } from '../types';

interface Draft {
  id: string | null;
  parentId: string;
  name: string;
  nameDe: string;
  active: boolean;
  visible: boolean;
}

const blank = (parentId: string): Draft => ({ id: null, parentId, name: '', nameDe: '', active: true, visible: true });

/** Categories as a tree (children under their parent, by position), with a form to create or edit one. */
export function CategoriesPage() {
  const { t } = useTranslation();
  const api = useAdminApi();
  const germanId = useGermanLanguageId();
  const displayName = useDisplayName();
  const [categories, setCategories] = useState<Category[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const root = categories.find((c) => c.level === 1)?.id ?? '';
  const [draft, setDraft] = useState<Draft>(blank(''));
  const form = useEntityForm(['name', 'parentId']);

  const load = useCallback(
    () =>
      api
        .search<Category>('category', { limit: 500, sort: [{ field: 'level' }, { field: 'position' }, { field: 'name' }] })
        .then((answer) => setCategories(answer.data))
        .catch((failure: unknown) => setLoadError(errorText(failure, t('admin.common.failed')))),
    [api, t],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const children = (parentId: string | null) => categories.filter((c) => c.parentId === parentId);
  const edit = (category: Category) => {
    form.reset();
    setDraft({
      id: category.id,
      parentId: category.parentId ?? '',
      name: category.name ?? '',
      nameDe: germanText(category.translations, germanId, 'name'),
      active: category.active,
      visible: category.visible,
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      parentId: (draft.parentId || root) || null,
      name: draft.name.trim(),
      active: draft.active,
      visible: draft.visible,
      ...germanPayload({ name: draft.nameDe }),
    };
    const ok = await form.run(async () => {
      if (draft.id) await api.patch('category', draft.id, body);
      else await api.create('category', body);
    });
    if (ok) {
      setDraft(blank(draft.parentId));
      await load();
    }
  };

  const remove = async (category: Category) => {
    if (!window.confirm(t('admin.common.confirmDelete', { name: category.name ?? '' }))) return;
    const ok = await form.run(() => api.remove('category', category.id), t('admin.common.deleted'));
    if (ok) {
      if (draft.id === category.id) setDraft(blank(''));
      await load();
    }
  };

  const tree = (parentId: string | null) => {
    const list = children(parentId);
    if (!list.length) return null;
    return (
      <ul className="admin-tree">
        {list.map((category) => (
          <li key={category.id}>
            <span>{displayName(category)}</span>{' '}
            {category.level > 1 && (
              <>
                <button type="button" className="link-button" onClick={() => edit(category)} aria-label={`${t('admin.common.edit')}: ${category.name ?? ''}`}>
                  {t('admin.common.edit')}
                </button>
                <button type="button" className="link-button link-button--danger" onClick={() => void remove(category)} aria-label={`${t('admin.common.delete')}: ${category.name ?? ''}`}>
                  {t('admin.common.delete')}
                </button>
              </>
            )}
            {tree(category.id)}
          </li>
        ))}
      </ul>
    );
  };

  const label = (category: Category): string => {
    const parent = categories.find((c) => c.id === category.parentId);
    return parent ? `${label(parent)} › ${category.name ?? ''}` : (category.name ?? '');
  };

  return (
    <AdminPage title={t('admin.categories.title')}>
      {loadError && <Notice>{loadError}</Notice>}
      <div className="admin-split">
        <nav aria-label={t('admin.categories.tree')}>{tree(null)}</nav>
        <form className="admin-form" onSubmit={(event) => void submit(event)} noValidate>
          <fieldset>
            <legend>{draft.id ? t('admin.categories.editTitle') : t('admin.categories.newTitle')}</legend>
            <FormMessages lines={form.general} />
            <SelectField
              label={t('admin.categories.parent')}
              value={draft.parentId || root}
              onChange={(e) => setDraft({ ...draft, parentId: e.target.value })}
              error={form.errors.parentId}
              options={categories.filter((c) => c.id !== draft.id).map((c) => ({ value: c.id, label: label(c) }))}
            />
            <Field label={t('admin.common.nameEn')} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={form.errors.name} required />
            <Field label={t('admin.common.nameDe')} lang="de" value={draft.nameDe} onChange={(e) => setDraft({ ...draft, nameDe: e.target.value })} />
            <Field label={t('admin.categories.active')} type="checkbox" checked={draft.active} onChange={(e) => setDraft({ ...draft, active: e.target.checked })} />
            <Field label={t('admin.categories.visible')} type="checkbox" checked={draft.visible} onChange={(e) => setDraft({ ...draft, visible: e.target.checked })} />
            <div className="admin-toolbar field--wide">
              <button type="submit" className="button button--primary" disabled={form.busy}>
                {draft.id ? t('admin.common.save') : t('admin.common.create')}
              </button>
              {draft.id && (
                <button type="button" className="button" onClick={() => setDraft(blank(''))}>
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
