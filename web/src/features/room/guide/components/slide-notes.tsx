import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from '@/components/cms/elements/text';
import type { Slide } from '../../api/presentation';
import './slide-notes.css';

type Note = NonNullable<Slide['notes']>[number];

/** The HTML of a note (a `notes` CMS slot of the slide): its translated content, else its own. */
export function noteHtml(note: Note): string {
  for (const config of [note.translated?.config, note.config] as ({ content?: { value?: unknown } } | undefined)[]) {
    const value = config?.content?.value;
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return '';
}

/**
 * The guide's notes of the slide on screen, as sanitised HTML. Only the guide cockpit
 * shows it; attendees' presentation structures carry no notes at all.
 */
export function SlideNotes({ slide }: { slide: Slide | undefined }) {
  const { t } = useTranslation();
  const notes = (slide?.notes ?? []).map((note) => ({ id: note.id, html: sanitizeHtml(noteHtml(note)) })).filter((note) => note.html.trim() !== '');
  return (
    <section className="slide-notes" aria-label={t('cockpit.notes')} data-testid="slide-notes">
      <h3>{t('cockpit.notes')}</h3>
      {notes.length > 0 ? (
        notes.map((note) => <div key={note.id} className="rich-text slide-notes__note" dangerouslySetInnerHTML={{ __html: note.html }} />)
      ) : (
        <p className="video-note">{t('cockpit.noNotes')}</p>
      )}
    </section>
  );
}
