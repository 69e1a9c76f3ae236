// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RuntimeConfigContext } from '@/config/runtime';
import { initI18n } from '@/lib/i18n';
import { addAdminTexts } from '../../admin-texts';
import type { AdminApi } from '../../api/client';
import { AdminApiProvider } from '../../api/context';
import { ImportPage } from './import-page';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const CSV = 'productNumber,name,price_gross,stock,categories\nKITE-2,Breeze kite,49,5,Kites\n';

/** An Admin API whose category and manufacturer lists come when the test says so. */
function slowLookups() {
  let release = () => {};
  const ready = new Promise<void>((resolve) => (release = resolve));
  const api = {
    search: async (entity: string) => {
      await ready;
      return { data: entity === 'category' ? [{ id: 'c-kites', name: 'Kites' }] : [], total: 1 };
    },
  } as unknown as AdminApi;
  return { api, release };
}

describe('ImportPage', () => {
  let host: HTMLDivElement;
  let root: Root;

  beforeAll(async () => {
    await initI18n('en-US');
    addAdminTexts();
  });

  beforeEach(() => {
    host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
  });

  afterEach(() => {
    act(() => root.unmount());
    host.remove();
  });

  const input = () => host.querySelector<HTMLInputElement>('input[type=file]')!;
  const importButton = () => [...host.querySelectorAll('button')].find((button) => button.textContent?.startsWith('Import'));

  async function choose(csv: string) {
    const file = new File([csv], 'kites.csv', { type: 'text/csv' });
    Object.defineProperty(input(), 'files', { value: [file], configurable: true });
    await act(async () => {
      input().dispatchEvent(new Event('change', { bubbles: true }));
      await file.text();
    });
  }

  it('checks a file chosen before the categories came again when they come', async () => {
    const { api, release } = slowLookups();
    const config = { shopEndpoint: 'http://shop.test', shopAccessToken: 'key', hubUrl: null, livekitUrl: null };
    await act(async () =>
      root.render(
        <RuntimeConfigContext.Provider value={config}>
          <AdminApiProvider api={api}>
            <ImportPage />
          </AdminApiProvider>
        </RuntimeConfigContext.Provider>,
      ),
    );
    expect(input().disabled).toBe(true);

    // A file that arrives early (a script, or a browser that let the change through) is read
    // against no categories: "Kites" is unknown and the import waits.
    await choose(CSV);
    expect(host.textContent).toContain('Unknown category: Kites');
    expect(host.textContent).toContain('One row has errors.');
    expect(importButton()?.disabled).toBe(true);

    await act(async () => release());
    expect(input().disabled).toBe(false);
    expect(host.textContent).not.toContain('row has errors');
    expect(host.textContent).not.toContain('Unknown category');
    expect(importButton()?.textContent).toBe('Import 1 product');
    expect(importButton()?.disabled).toBe(false);
  });
});
