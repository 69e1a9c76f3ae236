import type { ComponentType } from 'react';
import { componentName } from './mapping';
import { useCmsContext, type CmsElementProps } from './context';
import { CmsForm } from './elements/form';
import { CmsImage, CmsManufacturerLogo } from './elements/image';
import { CmsImageGallery, CmsImageSlider } from './elements/image-gallery';
import { CmsLike } from './elements/like';
import { CmsText } from './elements/text';
import { CmsVimeoVideo, CmsYoutubeVideo } from './elements/video';
import { Unresolved } from './unresolved';

/** The elements the CMS feature renders itself; the app adds the commerce ones. */
export const BUILT_IN_ELEMENTS: Record<string, ComponentType<CmsElementProps>> = {
  text: CmsText,
  image: CmsImage,
  'manufacturer-logo': CmsManufacturerLogo,
  'image-gallery': CmsImageGallery,
  'image-slider': CmsImageSlider,
  'youtube-video': CmsYoutubeVideo,
  'vimeo-video': CmsVimeoVideo,
  form: CmsForm,
  'custom-form': CmsForm,
  like: CmsLike,
};

/** Resolves a slot's element type: the app's components first, then the built-in ones. */
export function resolveElement(
  type: string,
  added: Partial<Record<string, ComponentType<CmsElementProps>>>,
): ComponentType<CmsElementProps> | null {
  return added[type] ?? BUILT_IN_ELEMENTS[type] ?? null;
}

export function CmsElement({ slot, block }: CmsElementProps) {
  const { elements, unsupported: Unsupported } = useCmsContext();
  const Element = resolveElement(slot.type, elements);
  if (!Element) return Unsupported ? <Unsupported type={slot.type} /> : <Unresolved component={componentName('element', slot.type)} />;
  return (
    <div className={`cms-element cms-element--${slot.type}`} data-element-type={slot.type}>
      {/* Element is looked up in tables of module-level components, not made here: the same type gives the same component, so its state survives a render. */}
      {/* eslint-disable-next-line react-hooks/static-components */}
      <Element slot={slot} block={block} />
    </div>
  );
}
