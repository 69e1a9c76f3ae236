// @vitest-environment jsdom
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '@/lib/i18n';
import { ELEMENT_TYPES } from './mapping';
import { CmsBlock } from './cms-page';
import { BUILT_IN_ELEMENTS, resolveElement } from './cms-element';
import { CmsContext } from './context';
import { sanitizeHtml } from './elements/text';

const slot = (type: string, data: object = {}, slotName = 'content') =>
  ({ id: `${type}-id`, type, slot: slotName, blockId: 'b', apiAlias: 'cms_slot', data, config: {}, translated: {} }) as never;

const block = (type: string, slots: unknown[]) => ({ id: 'b', type, position: 0, sectionId: 's', apiAlias: 'cms_block', slots }) as never;

describe('CMS element mapping', () => {
  beforeAll(() => initI18n('en-US'));

  it('resolves the built-in elements and prefers the ones the app adds', () => {
    const Added = () => null;
    expect(resolveElement('text', {})).toBe(BUILT_IN_ELEMENTS.text);
    expect(resolveElement('text', { text: Added })).toBe(Added);
    expect(resolveElement('product-box', {})).toBeNull();
  });

  it('has a built-in or app element for every named type once the app adds the commerce ones', () => {
    const app = ['product-box', 'product-listing', 'product-slider', 'product-name', 'product-description-reviews', 'buy-box', 'cross-selling', 'category-navigation', 'sidebar-filter'];
    const elements = Object.fromEntries(app.map((type) => [type, () => null]));
    for (const type of ELEMENT_TYPES) expect(resolveElement(type, elements), type).not.toBeNull();
  });

  it("says 'There is no {component}' for unknown elements and blocks", () => {
    const html = renderToStaticMarkup(<CmsBlock block={block('text', [slot('hologram')])} />);
    expect(html).toContain('There is no CmsElementHologram');
    expect(renderToStaticMarkup(<CmsBlock block={block('teleporter', [])} />)).toContain('There is no CmsBlockTeleporter');
  });

  it('renders text HTML sanitised', () => {
    const html = renderToStaticMarkup(
      <CmsContext.Provider value={{ elements: {} }}>
        <CmsBlock block={block('text', [slot('text', { content: '<h2>Hi</h2><img src=x onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">x</a>' })])} />
      </CmsContext.Provider>,
    );
    expect(html).toContain('<h2>Hi</h2>');
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('javascript:');
  });

  it('keeps links opening in a new tab', () => {
    expect(sanitizeHtml('<a href="https://x.test" target="_blank">x</a>')).toContain('target="_blank"');
  });

  it('lays slots out in the block type order', () => {
    const html = renderToStaticMarkup(
      <CmsBlock block={block('text-three-column', [slot('text', { content: 'R' }, 'right'), slot('text', { content: 'L' }, 'left'), slot('text', { content: 'C' }, 'center')])} />,
    );
    expect(html.indexOf('>L<')).toBeLessThan(html.indexOf('>C<'));
    expect(html.indexOf('>C<')).toBeLessThan(html.indexOf('>R<'));
    expect(html).toContain('cms-columns-3');
  });
});
