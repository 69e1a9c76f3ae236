import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/form';
import { useAdminApi, useAdminSession } from '../api/context';
import { errorText, fieldErrors } from '../api/errors';
import { AdminPage, Notice } from '../components/admin-page';
import type { EditorMessage } from '../components/editor-page';
import { NotesEditor } from '../presentations/notes-editor';

/** A legal page as `GET /api/_action/salesroom/legal-pages` answers it. */
interface LegalPage {
  name: 'privacy' | 'tos' | 'imprint';
  cmsPageId: string | null;
  translations: Record<string, { title: string | null; content: string }>;
}

const LANGUAGES = [
  { code: 'en-GB', key: 'en' },
  { code: 'de-DE', key: 'de' },
] as const;

type Texts = Record<string, { title: string; content: string }>;

function textsOf(page: LegalPage): Texts {
  return Object.fromEntries(
    LANGUAGES.map(({ code }) => [code, { title: page.translations[code]?.title ?? '', content: page.translations[code]?.content ?? '' }]),
  );
}

/** One legal page's form: title and text in English and German. */
function LegalPageForm({ page, canEdit }: { page: LegalPage; canEdit: boolean }) {
  const { t } = useTranslation();
  const api = useAdminApi();
  const [texts, setTexts] = useState<Texts>(() => textsOf(page));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<EditorMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (code: string, field: 'title' | 'content', value: string) =>
    setTexts((before) => ({ ...before, [code]: { ...before[code]!, [field]: value } }));

  async function save(event: FormEvent) {
    event.preventDefault();
    const missing = Object.fromEntries(
      LANGUAGES.filter(({ code }) => !texts[code]?.title.trim()).map(({ code }) => [`translations/${code}/title`, t('admin.legal.titleRequired')]),
    );
    if (Object.keys(missing).length) {
      setErrors(missing);
      setMessage({ kind: 'error', text: t('admin.common.fixErrors') });
      return;
    }
    setBusy(true);
    setErrors({});
    setMessage(null);
    try {
      const saved = await api.request<{ data: LegalPage }>('PATCH', `/_action/salesroom/legal-pages/${page.name}`, { translations: texts });
      setTexts(textsOf(saved.data));
      setMessage({ kind: 'success', text: t('admin.common.saved') });
    } catch (failure) {
      const fields = fieldErrors(failure);
      setErrors(fields);
      setMessage({ kind: 'error', text: Object.keys(fields).length ? t('admin.common.fixErrors') : errorText(failure, t('admin.common.failed')) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="admin-form" onSubmit={(event) => void save(event)} noValidate aria-labelledby={`legal-${page.name}`}>
      <h2 id={`legal-${page.name}`}>{t(`legal.${page.name}`)}</h2>
      {message && <Notice kind={message.kind}>{message.text}</Notice>}
      {LANGUAGES.map(({ code, key }) => (
        <fieldset key={code} disabled={!canEdit || busy}>
          <legend>{t(`admin.legal.language.${key}`)}</legend>
          <Field
            label={t(`admin.legal.title.${key}`)}
            value={texts[code]?.title ?? ''}
            error={errors[`translations/${code}/title`]}
            required
            onChange={(event) => set(code, 'title', event.target.value)}
          />
          <NotesEditor label={t(`admin.legal.content.${key}`)} value={texts[code]?.content ?? ''} disabled={!canEdit || busy} onChange={(html) => set(code, 'content', html)} />
          {errors[`translations/${code}/content`] && <p className="field__error">{errors[`translations/${code}/content`]}</p>}
        </fieldset>
      ))}
      {canEdit && (
        <div className="admin-toolbar">
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('admin.legal.save', { page: t(`legal.${page.name}`) })}
          </button>
        </div>
      )}
    </form>
  );
}

/**
 * `/admin/legal`: the shop's privacy policy, terms and imprint, in English and German. The
 * shop links them in its footer and wherever it asks for consent; the room opens them as
 * its shop-page modal.
 */
export function LegalPagesPage() {
  const { t } = useTranslation();
  const api = useAdminApi();
  const session = useAdminSession();
  const [pages, setPages] = useState<LegalPage[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    api
      .request<{ data: LegalPage[] }>('GET', '/_action/salesroom/legal-pages')
      .then((answer) => setPages(answer.data))
      .catch((error: unknown) => setFailure(errorText(error, t('admin.common.failed'))));
  }, [api, t]);
  return (
    <AdminPage title={t('admin.legal.pageTitle')}>
      <p className="muted">{t('admin.legal.intro')}</p>
      {failure && <Notice>{failure}</Notice>}
      {!pages && !failure && <p>{t('admin.common.loading')}</p>}
      {pages?.map((page) => <LegalPageForm key={page.name} page={page} canEdit={session?.role === 'admin'} />)}
    </AdminPage>
  );
}
