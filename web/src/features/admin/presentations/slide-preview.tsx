import { createContext, useContext, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '@/config/runtime';
import { useAdminApi } from '../api/context';
import { errorText } from '../api/errors';

/** One slide of `GET /store-api/dsr/presentation/{id}/preview`: the room's slide data, or why it cannot show. */
export interface PreviewSlide {
  pageId: string;
  sectionId: string;
  title: string | null;
  data?: unknown;
  error?: { code: string; detail?: string };
}

/** How a slide is drawn as attendees see it: the room's slide view, given by `src/app` (a feature imports no other feature). */
export type SlideRenderer = (props: { slide: PreviewSlide; index: number; position: string; language: string }) => ReactNode;

const SlideRendererContext = createContext<SlideRenderer | null>(null);
export const SlideRendererProvider = SlideRendererContext.Provider;

type Language = 'en' | 'de';

/**
 * "Preview as an attendee": the stored presentation's slides as the room shows them to
 * attendees, read only and without a live room, in English or German (the shop's
 * texts of that language). One slide at a time, with previous and next.
 */
export function SlidePreview({ presentationId, languages }: { presentationId: string; languages: { en?: string; de?: string } }) {
  const { t } = useTranslation();
  const api = useAdminApi();
  const config = useRuntimeConfig();
  const render = useContext(SlideRendererContext);
  const [language, setLanguage] = useState<Language>('en');
  const [slides, setSlides] = useState<PreviewSlide[] | null>(null);
  const [index, setIndex] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function load(next: Language) {
    setBusy(true);
    setError(null);
    try {
      const headers: Record<string, string> = { 'sw-access-key': config.shopAccessToken };
      const languageId = languages[next];
      if (languageId) headers['sw-language-id'] = languageId;
      const answer = await api.request<{ slides: PreviewSlide[] }>('GET', `/store-api/dsr/presentation/${presentationId}/preview`, undefined, headers);
      setSlides(answer.slides);
      setIndex((current) => Math.min(current, Math.max(answer.slides.length - 1, 0)));
      setLanguage(next);
    } catch (failure) {
      setError(errorText(failure, t('admin.common.failed')));
    } finally {
      setBusy(false);
    }
  }

  const slide = slides?.[index];
  return (
    <section className="admin-preview" aria-labelledby="preview-title">
      <h2 id="preview-title">{t('admin.presentations.preview.title')}</h2>
      <p className="muted">{t('admin.presentations.preview.help')}</p>
      <div className="admin-toolbar">
        <div className="field">
          <label htmlFor="preview-language">{t('admin.presentations.preview.language')}</label>
          <select
            id="preview-language"
            value={language}
            disabled={busy}
            onChange={(event) => {
              const next = event.target.value as Language;
              setLanguage(next);
              if (slides) void load(next);
            }}
          >
            <option value="en">{t('admin.common.english')}</option>
            <option value="de">{t('admin.common.german')}</option>
          </select>
        </div>
        <button type="button" className="button" disabled={busy} onClick={() => void load(language)}>
          {slides ? t('admin.presentations.preview.reload') : t('admin.presentations.preview.show')}
        </button>
      </div>
      {error && (
        <p className="alert" role="alert">
          {error}
        </p>
      )}
      {slides && slides.length === 0 && <p className="muted">{t('admin.presentations.noSlides')}</p>}
      {slides && slide && (
        <div className="admin-preview__stage" data-testid="admin-preview" lang={language}>
          <nav className="admin-toolbar" aria-label={t('admin.presentations.preview.navigation')}>
            <button type="button" className="button" disabled={index === 0} onClick={() => setIndex(index - 1)}>
              {t('admin.presentations.preview.previous')}
            </button>
            <span>{t('admin.presentations.preview.position', { number: index + 1, total: slides.length })}</span>
            <button type="button" className="button" disabled={index >= slides.length - 1} onClick={() => setIndex(index + 1)}>
              {t('admin.presentations.preview.next')}
            </button>
          </nav>
          {slide.error ? (
            <p className="alert" role="alert">
              {t('admin.presentations.preview.cannotShow', { detail: slide.error.detail ?? slide.error.code })}
            </p>
          ) : (
            render?.({ slide, index, language, position: t('admin.presentations.preview.position', { number: index + 1, total: slides.length }) })
          )}
        </div>
      )}
    </section>
  );
}
