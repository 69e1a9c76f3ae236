// @vitest-environment jsdom
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Slide } from '../../api/presentation';
import { initI18n } from '@/lib/i18n';
import { pagesOf, SlideNavigator } from './slide-navigator';

const slide = (index: number, page: string, pageName: string, sectionName: string | null, isInstantListing = false): Slide => ({
  index,
  sectionId: String(index).padStart(32, '0'),
  sectionName,
  groupId: page.repeat(32),
  groupName: pageName,
  cmsPageId: page.repeat(32),
  isInstantListing,
  notes: [],
});

// The demo presentation's shape: two pages of two slides around a single slide and an instant listing.
const slides = [
  slide(1, 'a', 'Welcome', 'Welcome to the autumn collection'),
  slide(2, 'a', 'Welcome', 'Our bestsellers'),
  slide(3, 'b', 'Product spotlight', 'Featured product'),
  slide(4, 'c', 'Instant listing', 'Picked for you', true),
  slide(5, 'd', 'Questions and thanks', 'Your questions'),
  slide(6, 'd', 'Questions and thanks', 'Thank you'),
];

describe("the guide's slide list", () => {
  beforeAll(() => initI18n('en-US'));

  it('groups consecutive slides by their page', () => {
    expect(pagesOf(slides).map((page) => [page.label, page.slides.map((s) => s.index)])).toEqual([
      ['Welcome', [1, 2]],
      ['Product spotlight', [3]],
      // An instant listing is named by its page already: no label repeats it.
      [null, [4]],
      ['Questions and thanks', [5, 6]],
    ]);
  });

  it('labels a page again when it comes back later, and never labels with an empty name', () => {
    const pages = pagesOf([slide(1, 'a', 'Welcome', 'One'), slide(2, 'b', ' ', 'Two'), slide(3, 'a', 'Welcome', 'Three')]);
    expect(pages.map((page) => page.label)).toEqual(['Welcome', null, 'Welcome']);
    expect(pagesOf([])).toEqual([]);
  });

  it('shows each page name once, as the label of its slides, and each slide by its own name', () => {
    const html = renderToStaticMarkup(<SlideNavigator slides={slides} current={2} disabled={false} onSelect={() => undefined} />);
    expect(html.match(/slide-navigator__page-name/g)).toHaveLength(3);
    expect(html.match(/>Welcome</g)).toHaveLength(1);
    expect(html).toContain('<h3 class="slide-navigator__page-name">Product spotlight</h3>');
    expect(html).toContain('aria-label="Slide 2: Our bestsellers"');
    expect(html).toContain('aria-label="Slide 4: Instant listing"');
    expect(html.match(/aria-current="step"/g)).toHaveLength(1);
    expect(html.match(/class="slide-thumb"/g)).toHaveLength(6);
    // The listing named "Instant listing" needs no tag saying so; a renamed one gets it.
    expect(html).not.toContain('slide-thumb__tag');
    const renamed = renderToStaticMarkup(
      <SlideNavigator slides={[slide(1, 'c', 'Picked for Ada', null, true)]} current={1} disabled={false} onSelect={() => undefined} />,
    );
    expect(renamed).toContain('aria-label="Slide 1: Picked for Ada"');
    expect(renamed).toContain('<span class="slide-thumb__tag">Instant listing</span>');
  });
});
