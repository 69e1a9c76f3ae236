import type { CSSProperties } from 'react';
import { BLOCK_LAYOUTS, byPosition, componentName, orderSlots, sectionWidth } from './mapping';
import { CmsContext, type CmsBlockData, type CmsPageData, type CmsRenderContext, type CmsSectionData } from './context';
import { CmsElement } from './cms-element';
import { Unresolved } from './unresolved';
import './cms-page.css';

function backgroundStyle(entity: { backgroundColor?: string; backgroundMedia?: { url?: string }; backgroundMediaMode?: string }): CSSProperties {
  const style: CSSProperties = {};
  if (entity.backgroundColor) style.backgroundColor = entity.backgroundColor;
  if (entity.backgroundMedia?.url) {
    style.backgroundImage = `url("${entity.backgroundMedia.url}")`;
    style.backgroundSize = entity.backgroundMediaMode === 'contain' ? 'contain' : 'cover';
    style.backgroundPosition = 'center';
    style.backgroundRepeat = 'no-repeat';
  }
  return style;
}

function visibilityClass(visibility: { mobile?: boolean; tablet?: boolean; desktop?: boolean } | undefined): string {
  if (!visibility) return '';
  return [visibility.mobile === false && 'hide-mobile', visibility.tablet === false && 'hide-tablet', visibility.desktop === false && 'hide-desktop']
    .filter(Boolean)
    .join(' ');
}

/** One block: its slots laid out as its type says; an unknown type says so. */
export function CmsBlock({ block }: { block: CmsBlockData }) {
  const layout = BLOCK_LAYOUTS[block.type];
  const style: CSSProperties = {
    ...backgroundStyle(block),
    marginTop: block.marginTop || undefined,
    marginBottom: block.marginBottom || undefined,
    marginLeft: block.marginLeft || undefined,
    marginRight: block.marginRight || undefined,
  };
  if (!layout) {
    return (
      <div className="cms-block" style={style}>
        <Unresolved component={componentName('block', block.type)} />
      </div>
    );
  }
  const slots = orderSlots(layout, block.slots ?? []);
  const pairs = layout.variant === 'pairs' || (layout.variant === 'bubble' && slots.length === 6);
  const cells = pairs
    ? Array.from({ length: Math.ceil(slots.length / 2) }, (_, index) => slots.slice(index * 2, index * 2 + 2))
    : slots.map((slot) => [slot]);
  return (
    <div
      className={['cms-block', `cms-block--${block.type}`, layout.variant ? `cms-block--${layout.variant}` : '', block.cssClass ?? '', visibilityClass(block.visibility)].filter(Boolean).join(' ')}
      data-block-type={block.type}
      style={style}
    >
      <div className={`cms-block__grid cms-columns-${layout.columns}`}>
        {cells.map((cell, index) => (
          <div key={cell[0]?.id ?? index} className="cms-block__cell" data-slot={cell.map((slot) => slot.slot).join(' ')}>
            {cell.map((slot) => (
              <CmsElement key={slot.id} slot={slot} block={block} />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}

/** One section: boxed (width-limited) or full width; a sidebar section has a side column. */
export function CmsSection({ section }: { section: CmsSectionData }) {
  const blocks = byPosition(section.blocks);
  const width = sectionWidth(section.sizingMode);
  const className = ['cms-section', `cms-section--${section.type}`, `cms-section--${width}`, section.cssClass ?? '', visibilityClass(section.visibility)]
    .filter(Boolean)
    .join(' ');
  if (section.type === 'sidebar') {
    const sidebar = blocks.filter((block) => block.sectionPosition === 'sidebar');
    const main = blocks.filter((block) => block.sectionPosition !== 'sidebar');
    return (
      <section className={className} style={backgroundStyle(section)} data-mobile-behavior={section.mobileBehavior}>
        <div className="cms-section__inner cms-section__inner--sidebar">
          {sidebar.length > 0 && (
            <aside className="cms-section__sidebar">
              {sidebar.map((block) => (
                <CmsBlock key={block.id} block={block} />
              ))}
            </aside>
          )}
          <div className="cms-section__main">
            {main.map((block) => (
              <CmsBlock key={block.id} block={block} />
            ))}
          </div>
        </div>
      </section>
    );
  }
  return (
    <section className={className} style={backgroundStyle(section)}>
      <div className="cms-section__inner">
        {blocks.map((block) => (
          <CmsBlock key={block.id} block={block} />
        ))}
      </div>
    </section>
  );
}

/** A content page: its sections in order. */
export function CmsPage({ page, context }: { page: CmsPageData; context: CmsRenderContext }) {
  return (
    <CmsContext.Provider value={context}>
      <div className={['cms-page', page.cssClass ?? ''].filter(Boolean).join(' ')} data-page-type={page.type}>
        {byPosition(page.sections).map((section) => (
          <CmsSection key={section.id} section={section} />
        ))}
      </div>
    </CmsContext.Provider>
  );
}
