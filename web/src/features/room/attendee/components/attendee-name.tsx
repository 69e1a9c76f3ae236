import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { Field } from '@/components/form';
import { modalStore } from '@/lib/ui/modal';
import { ATTENDEE_NAME_MAX_LENGTH, type AttendeeNameState } from '../stores/attendee-name';
import './attendee-name.css';

/** The form of the rename modal: the name, its check, save. */
function RenameForm({ store }: { store: StoreApi<AttendeeNameState> }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(() => store.getState().name);
  const [error, setError] = useState<string | null>(null);
  const status = useStore(store, (state) => state.status);

  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      const problem = await store.getState().rename(value);
      setError(problem);
      if (!problem) modalStore.getState().close();
    } catch {
      // The store says it failed; the alert below shows it.
    }
  }

  return (
    <form className="attendee-name__form" onSubmit={(event) => void submit(event)} noValidate>
      <Field
        label={t('presentation.name')}
        name="attendeeName"
        autoComplete="name"
        maxLength={ATTENDEE_NAME_MAX_LENGTH + 1}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        error={error}
      />
      {status === 'failed' && (
        <p className="alert" role="alert">
          {t('room.renameFailed')}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={status === 'saving'}>
        {t('room.renameSave')}
      </button>
    </form>
  );
}

/** The attendee's own name in the room's header, with a button to change it. */
export function AttendeeName({ store }: { store: StoreApi<AttendeeNameState> }) {
  const { t } = useTranslation();
  const name = useStore(store, (state) => state.name);
  return (
    <p className="attendee-name" data-testid="attendee-name">
      <span className="attendee-name__text">{t('room.youAre', { name })}</span>
      <button
        type="button"
        className="link-button"
        aria-label={t('room.renameLabel', { name })}
        onClick={() => modalStore.getState().open(<RenameForm store={store} />, { title: t('room.renameTitle'), size: 'small' })}
      >
        {t('room.rename')}
      </button>
    </p>
  );
}
