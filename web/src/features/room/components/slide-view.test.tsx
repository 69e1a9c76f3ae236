// @vitest-environment jsdom
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Slide } from '../api/presentation';
import { initI18n } from '@/lib/i18n';
import { SlideView } from './slide-view';

const slide = (sectionName: string | null, groupName: string, isInstantListing = false): Slide => ({
  index: 2,
  sectionId: 's'.repeat(32),
  sectionName,
  groupId: 'g'.repeat(32),
  groupName,
  cmsPageId: 'c'.repeat(32),
  isInstantListing,
  notes: [],
});

const render = (shown: Slide, sectionNames?: boolean) =>
  renderToStaticMarkup(<SlideView position="Slide 2" slide={shown} sectionNames={sectionNames} />);

describe('the slide header', () => {
  beforeAll(() => initI18n('en-US'));

  it("shows the guide the section's name, never the page's name under it", () => {
    const html = render(slide('Our bestsellers', 'Welcome'), true);
    expect(html).toContain('<h2 class="slide__title">Our bestsellers</h2>');
    expect(html).not.toContain('Welcome');
    expect(html).toContain('Slide 2');
  });

  it('shows attendees the position only, as section names are the shop’s untranslated labels', () => {
    const html = render(slide('Our bestsellers', 'Welcome'));
    expect(html).toContain('Slide 2');
    expect(html).not.toContain('slide__title');
    expect(html).not.toContain('Our bestsellers');
    expect(html).not.toContain('Welcome');
  });

  it("shows everyone an instant listing's name, and the guide a name for an unnamed slide", () => {
    expect(render(slide('Picked for you', 'Ada’s picks', true))).toContain('<h2 class="slide__title">Ada’s picks</h2>');
    expect(render(slide(null, ''), true)).toContain('<h2 class="slide__title">Untitled slide</h2>');
  });

  it('shows attendees the title the merchant gave a listing slide in the backoffice', () => {
    expect(render({ ...slide('All our kites', 'All our kites'), titled: true })).toContain('<h2 class="slide__title">All our kites</h2>');
  });
});
