import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminApi } from '../api/context';
import type { EntityName } from '../api/client';
import { errorText } from '../api/errors';
import { FormMessages } from './form-messages';
import { useEntityForm } from './use-entity-form';

/**
 * A small entity edited beside its list (manufacturers, promotions): loads the list
 * (sorted by the field `sort`), holds the form's draft (`blank` when new; `id` set when editing), saves it
 * (`body` of the draft; create or patch), deletes after a confirmation, and reloads;
 * `loaded` once the first load has answered (or failed).
 */
export function useEntityCrud<T extends { id: string; name?: string | null }, D extends { id: string | null }>({
  entity,
  sort,
  blank,
  shownFields,
  body,
}: {
  entity: EntityName;
  sort: string;
  blank: D;
  shownFields: string[];
  body: (draft: D) => Record<string, unknown>;
}) {
  const { t } = useTranslation();
  const api = useAdminApi();
  const [list, setList] = useState<T[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [draft, setDraft] = useState<D>(blank);
  const form = useEntityForm(shownFields);

  const load = useCallback(
    () =>
      api
        .search<T>(entity, { limit: 500, sort: [{ field: sort }] })
        .then((answer) => (setList(answer.data), setLoadError(null)))
        .catch((failure: unknown) => setLoadError(errorText(failure, t('admin.common.failed'))))
        .finally(() => setLoaded(true)),
    [api, entity, sort, t],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const payload = body(draft);
    const ok = await form.run(async () => {
      if (draft.id) await api.patch(entity, draft.id, payload);
      else await api.create(entity, payload);
    });
    if (ok) {
      setDraft(blank);
      await load();
    }
  };

  const remove = async (row: T) => {
    if (!window.confirm(t('admin.common.confirmDelete', { name: row.name ?? '' }))) return;
    if (await form.run(() => api.remove(entity, row.id), t('admin.common.deleted'))) await load();
  };

  /** Starts editing `row` as `next` (the draft made from it). */
  const edit = (next: D) => {
    form.reset();
    setDraft(next);
  };

  const cancel = () => setDraft(blank);
  /** What `EntityCrudForm` takes besides its legend and fields. */
  const formProps = { editing: !!draft.id, busy: form.busy, messages: form.general, onSubmit: submit, onCancel: cancel };

  return { list, loaded, loadError, draft, setDraft, form, submit, remove, edit, cancel, formProps };
}

/** The form beside the list: its legend (new or edit), the form's messages, the fields, Create/Save and Cancel. */
export function EntityCrudForm({
  legend,
  editing,
  busy,
  messages,
  onSubmit,
  onCancel,
  children,
}: {
  legend: string;
  editing: boolean;
  busy: boolean;
  messages: string[];
  onSubmit: (event: FormEvent) => Promise<void>;
  onCancel: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <form className="admin-form" onSubmit={(event) => void onSubmit(event)} noValidate>
      <fieldset>
        <legend>{legend}</legend>
        <FormMessages lines={messages} />
        {children}
        <div className="admin-toolbar field--wide">
          <button type="submit" className="button button--primary" disabled={busy}>
            {editing ? t('admin.common.save') : t('admin.common.create')}
          </button>
          {editing && (
            <button type="button" className="button" onClick={onCancel}>
              {t('admin.common.cancel')}
            </button>
          )}
        </div>
      </fieldset>
    </form>
  );
}
