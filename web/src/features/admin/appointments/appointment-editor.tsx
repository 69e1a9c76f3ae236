import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Field, SelectField } from '@/components/form';
import { useRuntimeConfig } from '@/config/runtime';
import { createStoreClient } from '@/lib/api/shop';
import { formatDateTime } from '@/lib/format';
import { useLocalePath } from '@/lib/i18n';
import { useAdminApi, useAdminSession } from '../api/context';
import { errorText, fieldErrors } from '../api/errors';
import { EditorActions, EditorPage, type EditorMessage } from '../components/editor-page';
import { useAdminPath } from '../components/admin-path';
import { useDisplayName } from '../catalogue/languages';
import {
  browserTimeZone,
  emptyForm,
  formFromEntity,
  invitationLink,
  pathFromName,
  toPayload,
  validate,
  zonedToUtc,
  type AppointmentEntity,
  type AppointmentForm,
} from './appointment-form';
import { AppointmentInvitations } from './appointment-invitations';

interface Option {
  id: string;
  name: string;
}

/** The shop's languages by short code (`en`, `de`). */
function useLanguageIds(): { en?: string; de?: string } {
  const config = useRuntimeConfig();
  const [ids, setIds] = useState<{ en?: string; de?: string }>({});
  useEffect(() => {
    createStoreClient(config)
      .invoke('readLanguages post /language', { body: { associations: { translationCode: {} } } })
      .then(({ data }) => {
        const found: { en?: string; de?: string } = {};
        for (const language of data.elements ?? []) {
          const code = language.translationCode?.code ?? '';
          if (code.startsWith('en')) found.en ??= language.id;
          if (code.startsWith('de')) found.de ??= language.id;
        }
        setIds(found);
      })
      .catch(() => setIds({}));
  }, [config]);
  return ids;
}

function timeZones(current: string): string[] {
  const supported = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  const zones = supported ? supported('timeZone') : [];
  return [...new Set(['UTC', current, ...zones])];
}

/** Create or edit an appointment; a stored one also shows its links, invitations and attendees. */
export function AppointmentEditor() {
  const { id } = useParams();
  const { t } = useTranslation();
  const api = useAdminApi();
  const session = useAdminSession();
  const navigate = useNavigate();
  const adminPath = useAdminPath();
  const localePath = useLocalePath();
  const languages = useLanguageIds();
  // The saved German name on a German page, as the list shows it.
  const displayName = useDisplayName();
  const [form, setForm] = useState<AppointmentForm>(() => emptyForm());
  const [stored, setStored] = useState<AppointmentEntity | null>(null);
  const [presentations, setPresentations] = useState<Option[]>([]);
  const [guides, setGuides] = useState<Option[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<EditorMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const [pathTouched, setPathTouched] = useState(false);
  const [copied, setCopied] = useState(false);
  const zones = useMemo(() => timeZones(form.timeZone), [form.timeZone]);
  // The start in the viewer's own zone, when the appointment is planned in another.
  const viewerZone = browserTimeZone();
  const startHere = form.start && form.timeZone !== viewerZone ? zonedToUtc(form.start, form.timeZone) : null;
  const startHint = startHere
    ? t('admin.appointments.inYourZone', {
        time: formatDateTime(startHere, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }),
      })
    : undefined;

  useEffect(() => {
    api
      .search<Option>('dsr-presentation', { limit: 500, sort: [{ field: 'name' }] })
      .then((found) => setPresentations(found.data))
      .catch(() => setPresentations([]));
    api
      .search<{ id: string; username: string; firstName?: string; lastName?: string; role?: string }>('user', { limit: 500 })
      .then((found) =>
        setGuides(found.data.map((user) => ({ id: user.id, name: [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username }))),
      )
      .catch(() => setGuides(null));
  }, [api]);

  useEffect(() => {
    if (!id) return;
    let current = true;
    api
      .get<AppointmentEntity>('dsr-appointment', id)
      .then((entity) => {
        if (!current) return;
        setStored(entity);
        setPathTouched(true);
        setForm(formFromEntity(entity, languages, browserTimeZone()));
      })
      .catch((failure: unknown) => current && setMessage({ kind: 'error', text: errorText(failure, t('admin.common.failed')) }));
    return () => {
      current = false;
    };
  }, [api, id, languages, t]);

  const set = <K extends keyof AppointmentForm>(key: K, value: AppointmentForm[K]) => setForm((before) => ({ ...before, [key]: value }));
  const errorOf = (field: string) => errors[field];

  async function save(event: FormEvent) {
    event.preventDefault();
    const found = validate(form);
    if (Object.keys(found).length) {
      setErrors(Object.fromEntries(Object.entries(found).map(([field, key]) => [field, t(`admin.appointments.errors.${key}`)])));
      setMessage({ kind: 'error', text: t('admin.common.fixErrors') });
      return;
    }
    setBusy(true);
    setErrors({});
    setMessage(null);
    try {
      if (stored) {
        await api.patch('dsr-appointment', stored.id, toPayload(form));
        setStored(await api.get<AppointmentEntity>('dsr-appointment', stored.id));
        setMessage({ kind: 'success', text: t('admin.common.saved') });
      } else {
        const created = await api.create<AppointmentEntity>('dsr-appointment', toPayload(form));
        void navigate(adminPath(`appointments/${created.id}`), { replace: true });
      }
    } catch (failure) {
      const fields = fieldErrors(failure);
      setErrors(fields);
      setMessage({ kind: 'error', text: Object.keys(fields).length ? t('admin.common.fixErrors') : errorText(failure, t('admin.common.failed')) });
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    if (!stored || !window.confirm(t('admin.common.confirmDelete', { name: displayName(stored) }))) return;
    try {
      await api.remove('dsr-appointment', stored.id);
      void navigate(adminPath('appointments'));
    } catch (failure) {
      setMessage({ kind: 'error', text: errorText(failure, t('admin.common.failed')) });
    }
  }

  const link = stored ? invitationLink(window.location.origin, stored.presentationPath) : '';
  const isAdmin = session?.role === 'admin';

  return (
    <EditorPage title={stored ? t('admin.appointments.editTitle', { name: displayName(stored) }) : t('admin.appointments.newTitle')} backTo={adminPath('appointments')} message={message}>
      {stored && (
        <div className="admin-toolbar">
          <Field label={t('admin.appointments.invitationLink')} value={link} readOnly onFocus={(event) => event.currentTarget.select()} />
          <button
            type="button"
            className="button"
            onClick={() => {
              void navigator.clipboard?.writeText(link).then(() => setCopied(true), () => setCopied(false));
            }}
          >
            {t('admin.appointments.copyLink')}
          </button>
          <span role="status">{copied ? t('admin.appointments.copied') : ''}</span>
          <a className="button" href={localePath(`/guide/${stored.presentationPath}`)} target="_blank" rel="noreferrer">
            {t('admin.appointments.openRoom')}
          </a>
          <a className="button" href={localePath(`/guide/report/${stored.id}`)}>
            {t('admin.appointments.report')}
          </a>
        </div>
      )}
      <form className="admin-form" onSubmit={(event) => void save(event)} noValidate>
        <fieldset disabled={!isAdmin || busy}>
          <legend>{t('admin.appointments.basics')}</legend>
          <Field
            label={t('admin.appointments.nameEn')}
            value={form.nameEn}
            error={errorOf('name')}
            required
            onChange={(event) => {
              const name = event.target.value;
              setForm((before) => ({ ...before, nameEn: name, presentationPath: pathTouched ? before.presentationPath : pathFromName(name) }));
            }}
          />
          <Field
            label={t('admin.appointments.nameDe')}
            value={form.nameDe}
            error={errorOf('translations/de-DE/name')}
            onChange={(event) => set('nameDe', event.target.value)}
          />
          <SelectField
            label={t('admin.appointments.presentation')}
            value={form.presentationId}
            error={errorOf('presentationId')}
            placeholder={t('admin.appointments.choosePresentation')}
            options={presentations.map((p) => ({ value: p.id, label: p.name }))}
            onChange={(event) => set('presentationId', event.target.value)}
          />
          {guides && (
            <SelectField
              label={t('admin.appointments.guide')}
              value={form.guideUserId}
              error={errorOf('guideUserId')}
              placeholder={t('admin.appointments.anyGuide')}
              options={guides.map((g) => ({ value: g.id, label: g.name }))}
              onChange={(event) => set('guideUserId', event.target.value)}
            />
          )}
          <SelectField
            label={t('admin.appointments.mode')}
            value={form.mode}
            options={[
              { value: 'guided', label: t('admin.appointments.modeGuided') },
              { value: 'self', label: t('admin.appointments.modeSelf') },
            ]}
            onChange={(event) => set('mode', event.target.value as AppointmentForm['mode'])}
          />
          <Field
            label={t('admin.appointments.path')}
            hint={t('admin.appointments.pathHint')}
            value={form.presentationPath}
            error={errorOf('presentationPath')}
            required
            maxLength={64}
            pattern="[a-z0-9-]+"
            onChange={(event) => {
              setPathTouched(true);
              set('presentationPath', event.target.value);
            }}
          />
        </fieldset>
        <fieldset disabled={!isAdmin || busy}>
          <legend>{t('admin.appointments.schedule')}</legend>
          <Field
            label={t('admin.appointments.start')}
            type="datetime-local"
            hint={startHint}
            value={form.start}
            error={errorOf('accessibleFrom')}
            onChange={(event) => set('start', event.target.value)}
          />
          <Field
            label={t('admin.appointments.end')}
            type="datetime-local"
            value={form.end}
            error={errorOf('accessibleTo')}
            onChange={(event) => set('end', event.target.value)}
          />
          <SelectField
            label={t('admin.appointments.timeZone')}
            value={form.timeZone}
            options={zones.map((zone) => ({ value: zone, label: zone }))}
            onChange={(event) => set('timeZone', event.target.value)}
          />
        </fieldset>
        <fieldset disabled={!isAdmin || busy}>
          <legend>{t('admin.appointments.access')}</legend>
          <SelectField
            label={t('admin.appointments.restriction')}
            value={form.restriction}
            options={[
              { value: 'open', label: t('admin.appointments.restrictionOpen') },
              { value: 'customer', label: t('admin.appointments.restrictionCustomer') },
            ]}
            onChange={(event) => set('restriction', event.target.value as AppointmentForm['restriction'])}
          />
          <SelectField
            label={t('admin.appointments.videoAudio')}
            value={form.videoAudio}
            options={[
              { value: 'both', label: t('admin.appointments.videoBoth') },
              { value: 'audio-only', label: t('admin.appointments.videoAudioOnly') },
              { value: 'none', label: t('admin.appointments.videoNone') },
            ]}
            onChange={(event) => set('videoAudio', event.target.value as AppointmentForm['videoAudio'])}
          />
          <Field
            label={t('admin.appointments.broadcast')}
            hint={t('admin.appointments.broadcastHint')}
            type="checkbox"
            checked={form.broadcast}
            onChange={(event) => set('broadcast', event.target.checked)}
          />
        </fieldset>
        <EditorActions canEdit={isAdmin} stored={!!stored} busy={busy} onDelete={() => void remove()} />
      </form>
      {stored && <AppointmentInvitations appointment={stored} languages={languages} />}
    </EditorPage>
  );
}
