import { describe, expect, it } from 'vitest';
import { currentSlideOf, neighboursOf, structureReloadOf, type Slide } from './presentation';

const slide = (index: number, groupId = `g${index}`, sectionId = `s${index}`): Slide => ({
  index,
  groupId,
  sectionId,
  cmsPageId: `c${index}`,
  groupName: `Group ${index}`,
  sectionName: `Section ${index}`,
});
const slides = [slide(1), slide(2), slide(3), slide(4)];

describe('the current slide', () => {
  it('is the first before any switch, then the one of the live alias', () => {
    expect(currentSlideOf(slides, { currentSlideAlias: 0, currentPageId: null, currentSectionId: null })).toBe(slides[0]);
    expect(currentSlideOf(slides, { currentSlideAlias: 3, currentPageId: 'g3', currentSectionId: 's3' })).toBe(slides[2]);
  });

  it('follows the live section when the numbers moved (an instant listing was inserted)', () => {
    expect(currentSlideOf(slides, { currentSlideAlias: 2, currentPageId: 'g4', currentSectionId: 's4' })).toBe(slides[3]);
  });

  it('stands in from the live state for a slide the structure does not have yet', () => {
    expect(currentSlideOf(slides, { currentSlideAlias: 5, currentPageId: 'new', currentSectionId: 'sx' })).toMatchObject({
      index: 5,
      groupId: 'new',
      sectionId: 'sx',
    });
  });

  it('has neighbours to load ahead', () => {
    expect(neighboursOf(slides, 1).map((s) => s.index)).toEqual([2, 3]);
    expect(neighboursOf(slides, 4).map((s) => s.index)).toEqual([3]);
  });
});

describe('structure reloads', () => {
  it('come with a new or changed instant listing, not with a cart hint', () => {
    expect(structureReloadOf({ kind: 'reload', action: { key: 'loadSlide', payload: { pageId: 'p', sectionId: 's' } } })).toEqual({ pageId: 'p' });
    expect(
      structureReloadOf({ kind: 'reload', action: { key: 'updateListingProducts', payload: { pageId: 'p', sectionId: 's', productIds: [] } } }),
    ).toEqual({ pageId: 'p' });
    expect(structureReloadOf({ kind: 'reload', action: { key: 'loadCart', payload: { attendeeId: null } } })).toBeNull();
    expect(structureReloadOf({ kind: 'lockChanged', locked: true })).toBeNull();
  });
});
