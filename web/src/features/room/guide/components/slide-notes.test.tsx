// @vitest-environment jsdom
import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Slide } from '../../api/presentation';
import { initI18n, loadLocaleTexts } from '@/lib/i18n';
import { noteHtml, SlideNotes } from './slide-notes';

type Note = NonNullable<Slide['notes']>[number];

const note = (id: string, html: string, translated?: string): Note =>
  ({
    id,
    type: 'notes',
    slot: 'content',
    blockId: 'b'.repeat(32),
    apiAlias: 'cms_slot',
    config: { content: { source: 'static', value: html } },
    translated: { config: translated === undefined ? {} : { content: { source: 'static', value: translated } } },
  }) as unknown as Note;

const slide = (notes: Note[]): Slide => ({
  index: 1,
  sectionId: 's'.repeat(32),
  sectionName: 'Welcome',
  groupId: 'g'.repeat(32),
  groupName: 'Welcome',
  cmsPageId: 'c'.repeat(32),
  notes,
});

describe('the slide notes panel', () => {
  beforeAll(() => initI18n('en-US'));

  it("shows the slide's notes as sanitised HTML", () => {
    const html = renderToStaticMarkup(
      <SlideNotes
        slide={slide([
          note('1', '<p>Mention <strong>SALESROOM10</strong></p><script>alert(1)</script><img src="x" onerror="alert(2)">'),
          note('2', '<ul><li>Ask for likes</li></ul><a href="javascript:alert(3)">link</a>'),
        ])}
      />,
    );
    expect(html).toContain('aria-label="Slide notes"');
    expect(html).toContain('<strong>SALESROOM10</strong>');
    expect(html).toContain('<li>Ask for likes</li>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('javascript:');
    expect(html.match(/slide-notes__note/g)).toHaveLength(2);
    expect(html).not.toContain('No notes for this slide.');
  });

  it('prefers the translated note and skips empty ones', () => {
    expect(noteHtml(note('1', '<p>Welcome</p>', '<p>Willkommen</p>'))).toBe('<p>Willkommen</p>');
    expect(noteHtml(note('2', '<p>Welcome</p>'))).toBe('<p>Welcome</p>');
    const html = renderToStaticMarkup(<SlideNotes slide={slide([note('3', '  '), note('4', '<script>only()</script>')])} />);
    expect(html).not.toContain('slide-notes__note');
    expect(html).toContain('No notes for this slide.');
  });

  it('says when a slide has no notes, in English and German', async () => {
    expect(renderToStaticMarkup(<SlideNotes slide={slide([])} />)).toContain('No notes for this slide.');
    expect(renderToStaticMarkup(<SlideNotes slide={undefined} />)).toContain('No notes for this slide.');
    await loadLocaleTexts('de-DE');
    await i18next.changeLanguage('de-DE');
    const html = renderToStaticMarkup(<SlideNotes slide={slide([])} />);
    expect(html).toContain('Notizen zur Folie');
    expect(html).toContain('Keine Notizen zu dieser Folie.');
    await i18next.changeLanguage('en-US');
  });
});
