/**
 * How each CMS block type lays out its slots: the slot names in reading order, the
 * number of columns on wide screens, and whether slots come in image/text pairs.
 */
export interface BlockLayout {
  slots: string[];
  columns: 1 | 2 | 3 | 4;
  variant?: 'pairs' | 'cover' | 'bubble' | 'highlight' | 'text-on-image' | 'sidebar' | 'hero' | 'simple-grid' | 'three-cover';
}

const ROW_PAIRS = ['left-image', 'left-text', 'center-image', 'center-text', 'right-image', 'right-text'];
const LCR = ['left', 'center', 'right'];
const LR = ['left', 'right'];

/** Every block type named in spec section 2 (and Shopware's standard ones around them). */
export const BLOCK_LAYOUTS: Record<string, BlockLayout> = {
  // text
  text: { slots: ['content'], columns: 1 },
  'text-hero': { slots: ['content'], columns: 1, variant: 'hero' },
  'text-teaser': { slots: ['content'], columns: 1, variant: 'hero' },
  'text-teaser-section': { slots: LR, columns: 2 },
  'text-two-column': { slots: LR, columns: 2 },
  'text-three-column': { slots: LCR, columns: 3 },
  'text-on-image': { slots: ['content'], columns: 1, variant: 'text-on-image' },
  'center-text': { slots: LCR, columns: 3 },
  // images
  image: { slots: ['image'], columns: 1 },
  'image-cover': { slots: ['image'], columns: 1, variant: 'cover' },
  'image-two-column': { slots: LR, columns: 2 },
  'image-three-column': { slots: LCR, columns: 3 },
  'image-four-column': { slots: ['left', 'center-left', 'center-right', 'right'], columns: 4 },
  'image-three-cover': { slots: LCR, columns: 3, variant: 'three-cover' },
  'image-bubble-row': { slots: LCR, columns: 3, variant: 'bubble' },
  'image-highlight-row': { slots: LCR, columns: 3, variant: 'highlight' },
  'image-gallery': { slots: ['imageGallery'], columns: 1 },
  'image-gallery-big': { slots: ['imageGallery'], columns: 1 },
  'image-big-gallery': { slots: ['imageGallery'], columns: 1 },
  'image-slider': { slots: ['imageSlider'], columns: 1 },
  'image-text': { slots: LR, columns: 2 },
  'image-text-cover': { slots: LR, columns: 2 },
  'image-text-row': { slots: ROW_PAIRS, columns: 3, variant: 'pairs' },
  'image-text-gallery': { slots: ROW_PAIRS, columns: 3, variant: 'pairs' },
  'image-text-bubble': { slots: ROW_PAIRS, columns: 3, variant: 'bubble' },
  'image-simple-grid': { slots: ['left-top', 'left-bottom', 'right'], columns: 2, variant: 'simple-grid' },
  // video
  'youtube-video': { slots: ['video'], columns: 1 },
  'vimeo-video': { slots: ['video'], columns: 1 },
  // commerce
  'product-listing': { slots: ['content'], columns: 1 },
  'product-slider': { slots: ['productSlider'], columns: 1 },
  'product-three-column': { slots: LCR, columns: 3 },
  'product-heading': { slots: LR, columns: 2 },
  'product-description-reviews': { slots: ['content'], columns: 1 },
  'gallery-buybox': { slots: LR, columns: 2 },
  'cross-selling': { slots: ['content'], columns: 1 },
  'category-navigation': { slots: ['content'], columns: 1 },
  'sidebar-category-navigation': { slots: ['content'], columns: 1 },
  'sidebar-filter': { slots: ['content'], columns: 1 },
  // forms
  form: { slots: ['content'], columns: 1 },
  'custom-form': { slots: ['content'], columns: 1 },
};

/** Every element type the renderer knows (spec section 2). */
export const ELEMENT_TYPES = [
  'text',
  'image',
  'image-gallery',
  'image-slider',
  'youtube-video',
  'vimeo-video',
  'manufacturer-logo',
  'form',
  'custom-form',
  'like',
  'product-box',
  'product-listing',
  'product-slider',
  'product-name',
  'product-description-reviews',
  'buy-box',
  'cross-selling',
  'category-navigation',
  'sidebar-filter',
] as const;

export type ElementType = (typeof ELEMENT_TYPES)[number];

const pascal = (type: string) =>
  type
    .split(/[-_]/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** The component name of a block or element type, as 'There is no {component}' names it. */
export function componentName(kind: 'block' | 'element', type: string): string {
  return `Cms${kind === 'block' ? 'Block' : 'Element'}${pascal(type)}`;
}

/**
 * The slots of a block in layout order; slots the layout does not name come last, in
 * their own order, so nothing the shop sends is dropped.
 */
export function orderSlots<T extends { slot: string }>(layout: BlockLayout, slots: T[]): T[] {
  const rank = (slot: T) => {
    const index = layout.slots.indexOf(slot.slot);
    return index === -1 ? layout.slots.length : index;
  };
  return [...slots].sort((a, b) => rank(a) - rank(b));
}

/** Sections and blocks come in `position` order. */
export function byPosition<T extends { position?: number }>(items: T[] | null | undefined): T[] {
  return [...(items ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
}

/** A section's content width: boxed sections are width-limited, full-width ones are not. */
export function sectionWidth(sizingMode: string | null | undefined): 'boxed' | 'full' {
  return sizingMode === 'full_width' ? 'full' : 'boxed';
}

/** A slot's config value (`config.{key}.value`), falling back to the translated config. */
export function configValue<T = unknown>(
  slot: { config?: unknown; translated?: { config?: unknown } },
  key: string,
): T | undefined {
  const read = (config: unknown) =>
    config && typeof config === 'object' ? ((config as Record<string, unknown>)[key] as { value?: T } | undefined)?.value : undefined;
  return read(slot.config) ?? read(slot.translated?.config);
}

/** The video id and the embed URL of a YouTube or Vimeo element. */
export function videoEmbedUrl(
  provider: 'youtube' | 'vimeo',
  options: { videoId: string; autoPlay?: boolean; loop?: boolean; showControls?: boolean; start?: number; end?: number; advancedPrivacyMode?: boolean },
): string {
  const id = encodeURIComponent(options.videoId.trim());
  const params = new URLSearchParams();
  if (provider === 'youtube') {
    const host = options.advancedPrivacyMode === false ? 'https://www.youtube.com' : 'https://www.youtube-nocookie.com';
    params.set('rel', '0');
    if (options.autoPlay) params.set('autoplay', '1');
    if (options.loop) {
      params.set('loop', '1');
      params.set('playlist', options.videoId.trim());
    }
    if (options.showControls === false) params.set('controls', '0');
    if (options.start) params.set('start', String(options.start));
    if (options.end) params.set('end', String(options.end));
    return `${host}/embed/${id}?${params}`;
  }
  if (options.autoPlay) params.set('autoplay', '1');
  if (options.loop) params.set('loop', '1');
  if (options.showControls === false) params.set('controls', '0');
  params.set('dnt', '1');
  const query = params.toString();
  return `https://player.vimeo.com/video/${id}?${query}${options.start ? `#t=${options.start}s` : ''}`;
}
