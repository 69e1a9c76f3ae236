import { describe, expect, it } from 'vitest';
import { BLOCK_LAYOUTS, byPosition, componentName, configValue, orderSlots, sectionWidth, videoEmbedUrl } from './mapping';

describe('block layouts', () => {
  it.each([
    'category-navigation',
    'text',
    'text-on-image',
    'text-teaser',
    'text-two-column',
    'text-three-column',
    'image',
    'image-bubble-row',
    'image-cover',
    'image-two-column',
    'image-three-column',
    'image-four-column',
    'image-gallery',
    'image-gallery-big',
    'image-highlight-row',
    'image-slider',
    'image-text-bubble',
    'image-text-gallery',
    'image-three-cover',
    'product-listing',
    'product-slider',
    'product-three-column',
    'product-heading',
    'product-description-reviews',
    'gallery-buybox',
    'cross-selling',
    'form',
    'custom-form',
    'sidebar-filter',
    'youtube-video',
    'vimeo-video',
  ])('knows the block %s named in spec section 2', (type) => {
    expect(BLOCK_LAYOUTS[type]).toBeDefined();
  });

  it('orders slots by the layout and keeps unknown slots last', () => {
    const slots = [{ slot: 'right' }, { slot: 'extra' }, { slot: 'left' }, { slot: 'center' }];
    expect(orderSlots(BLOCK_LAYOUTS['image-three-column']!, slots).map((slot) => slot.slot)).toEqual(['left', 'center', 'right', 'extra']);
  });

  it('groups image/text rows into pairs', () => {
    expect(BLOCK_LAYOUTS['image-text-row']).toMatchObject({ variant: 'pairs', columns: 3 });
  });
});

describe('helpers', () => {
  it('name unresolved components like the original', () => {
    expect(componentName('block', 'image-bubble-row')).toBe('CmsBlockImageBubbleRow');
    expect(componentName('element', 'product_box')).toBe('CmsElementProductBox');
  });

  it('sort by position and limit boxed sections', () => {
    expect(byPosition([{ position: 2 }, { position: 0 }, { position: 1 }]).map((item) => item.position)).toEqual([0, 1, 2]);
    expect(sectionWidth('boxed')).toBe('boxed');
    expect(sectionWidth(undefined)).toBe('boxed');
    expect(sectionWidth('full_width')).toBe('full');
  });

  it('read config values, translated ones as fallback', () => {
    expect(configValue({ config: { videoID: { value: 'abc' } } }, 'videoID')).toBe('abc');
    expect(configValue({ config: {}, translated: { config: { content: { value: '<p>x</p>' } } } }, 'content')).toBe('<p>x</p>');
    expect(configValue({}, 'missing')).toBeUndefined();
  });

  it('build both video embeds', () => {
    expect(videoEmbedUrl('youtube', { videoId: 'dQw4w9WgXcQ', autoPlay: true, start: 10 })).toBe(
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0&autoplay=1&start=10',
    );
    expect(videoEmbedUrl('youtube', { videoId: 'id', advancedPrivacyMode: false, loop: true })).toBe(
      'https://www.youtube.com/embed/id?rel=0&loop=1&playlist=id',
    );
    expect(videoEmbedUrl('vimeo', { videoId: '76979871', showControls: false })).toBe('https://player.vimeo.com/video/76979871?controls=0&dnt=1');
  });
});
