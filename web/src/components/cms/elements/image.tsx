import { configValue } from '../mapping';
import type { CmsElementProps } from '../context';
import './image.css';

interface Media {
  url?: string;
  alt?: string;
  title?: string;
  translated?: { alt?: string; title?: string };
  metaData?: { width?: number; height?: number };
}

export function mediaOf(slot: CmsElementProps['slot']): Media | undefined {
  return (slot.data as { media?: Media } | undefined)?.media;
}

/** An image, optionally a link; display mode standard, cover or contain. */
export function CmsImage({ slot }: CmsElementProps) {
  const media = mediaOf(slot);
  if (!media?.url) return <div className="cms-image cms-image--empty" aria-hidden="true" />;
  const displayMode = configValue<string>(slot, 'displayMode') ?? 'standard';
  const minHeight = configValue<string>(slot, 'minHeight');
  const url = configValue<string>(slot, 'url') ?? (slot.data as { url?: string } | undefined)?.url;
  const newTab = configValue<boolean>(slot, 'newTab');
  const image = (
    <img
      src={media.url}
      alt={media.translated?.alt || media.alt || ''}
      title={media.translated?.title || media.title || undefined}
      loading="lazy"
      width={media.metaData?.width}
      height={media.metaData?.height}
    />
  );
  return (
    <figure className={`cms-image cms-image--${displayMode}`} style={displayMode !== 'standard' && minHeight ? { minHeight } : undefined}>
      {url ? (
        <a href={url} target={newTab ? '_blank' : undefined} rel={newTab ? 'noopener noreferrer' : undefined}>
          {image}
        </a>
      ) : (
        image
      )}
    </figure>
  );
}

/** A manufacturer's logo: an image, linked to the manufacturer's site when given. */
export function CmsManufacturerLogo(props: CmsElementProps) {
  return (
    <div className="cms-manufacturer-logo">
      <CmsImage {...props} />
    </div>
  );
}
