// @vitest-environment jsdom
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CmsBlock } from '@/components/cms/cms-page';
import { CmsContext } from '@/components/cms/context';
import i18next from 'i18next';
import { initI18n, loadLocaleTexts } from '@/lib/i18n';
import { pageCount, ROOM_CMS_CONTEXT, RoomSlideProvider } from './room-cms';

vi.mock('@/config/runtime', () => ({ useRuntimeConfig: () => ({ shopEndpoint: 'http://shop.test', accessToken: 'key' }) }));

const slot = (type: string, data: object = {}, slotName = 'content') =>
  ({ id: `${type}-id`, type, slot: slotName, blockId: 'b', apiAlias: 'cms_slot', data, config: {}, translated: {} }) as never;
const block = (type: string, slots: unknown[]) => ({ id: 'b', type, position: 0, sectionId: 's', apiAlias: 'cms_block', slots }) as never;
const product = { id: 'p1', name: 'Rain jacket', translated: { name: 'Rain jacket' }, productNumber: 'SR1', calculatedPrice: { unitPrice: 89.99 } };

function render(node: React.ReactNode, actions?: (product: { id: string; name: string }) => React.ReactNode) {
  return renderToStaticMarkup(
    <CmsContext.Provider value={ROOM_CMS_CONTEXT}>
      <RoomSlideProvider value={{ onOpen: () => undefined, actions }}>{node}</RoomSlideProvider>
    </CmsContext.Provider>,
  );
}

describe('room CMS elements', () => {
  beforeAll(() => initI18n('en-US'));

  it('shows product boxes as room cards that open the modal and carry the room actions', () => {
    const html = render(<CmsBlock block={block('product-three-column', [slot('product-box', { product }, 'left')])} />, (p) => <span className="like">{`Like ${p.name}`}</span>);
    expect(html).toContain('data-testid="room-product"');
    expect(html).toContain('aria-label="Details of Rain jacket"');
    expect(html).toContain('Like Rain jacket');
    // No link out of the room into the shop.
    expect(html).not.toContain('href=');
  });

  it('marks sold-out products on the slide itself, in English and German', async () => {
    const soldOut = { ...product, id: 'p2', name: 'Wool hat', translated: { name: 'Wool hat' }, isCloseout: true, availableStock: 0, stock: 0 };
    const unavailable = { ...product, id: 'p3', name: 'Scarf', translated: { name: 'Scarf' }, available: false };
    const html = render(
      <CmsBlock
        block={block('product-three-column', [slot('product-box', { product }, 'left'), slot('product-box', { product: soldOut }, 'center'), slot('product-box', { product: unavailable }, 'right')])}
      />,
    );
    expect(html.match(/data-testid="sold-out"/g)).toHaveLength(2);
    expect(html).toMatch(/aria-label="Wool hat"[^]*Sold out/);
    expect(html).toContain('data-sold-out="false" aria-label="Rain jacket"');
    await loadLocaleTexts('de-DE');
    await i18next.changeLanguage('de-DE');
    expect(render(<CmsBlock block={block('product-three-column', [slot('product-box', { product: soldOut }, 'left')])} />)).toContain('Ausverkauft');
    await i18next.changeLanguage('en-US');
  });

  it('names elements the room does not show, in English and German', async () => {
    expect(render(<CmsBlock block={block('cross-selling', [slot('cross-selling')])} />)).toContain('CmsElementCrossSelling is not supported in presentations');
    await loadLocaleTexts('de-DE');
    await i18next.changeLanguage('de-DE');
    expect(render(<CmsBlock block={block('text', [slot('hologram')])} />)).toContain('CmsElementHologram wird in Präsentationen nicht unterstützt');
    await i18next.changeLanguage('en-US');
  });

  it('pages listing slides by 36', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(36)).toBe(1);
    expect(pageCount(37)).toBe(2);
  });
});
