import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startServers, type Servers } from './global-setup';
import { guideLogsIn, joinAsGuest } from './logins';

/**
 * For room specs whose guide starts, locks or ends the appointment (which changes it for
 * good): the spec gets its own fresh servers, started before its first test and stopped
 * after its last, and a page per participant, each in its own browser context.
 * `upstream: true`: the browsers' proxy forwards to a stand-in for Shopware (see
 * `startServers`).
 */
export function ownServers({ upstream = false }: { upstream?: boolean } = {}) {
  let servers: Servers;

  test.use({ actionTimeout: 15_000 });

  test.beforeAll(async () => {
    servers = await startServers({ upstream });
  });

  test.afterAll(async () => {
    await servers?.teardown();
  });

  return {
    /** The hub's origin of these servers (its `/metrics`). */
    hubUrl: (): string => servers.hubUrl,
    /** A desktop-sized page in a new browser context (with `options`); `prepare` runs on the context first. */
    newPage: async (
      browser: Browser,
      prepare?: (context: BrowserContext) => Promise<void>,
      options: Parameters<Browser['newContext']>[0] = {},
    ): Promise<Page> => {
      const context = await browser.newContext({ baseURL: servers.origin, viewport: { width: 1440, height: 900 }, ...options });
      await prepare?.(context);
      return context.newPage();
    },
  };
}

/** A product of the demo catalogue far past its first page (the last by product number), read through the Store API. */
export async function productDeepInCatalogue(page: Page): Promise<{ name: string; productNumber: string }> {
  const config = (await (await page.request.get('/runtime-config.json')).json()) as { shopAccessToken: string };
  const response = await page.request.post('/store-api/product', {
    headers: { 'sw-access-key': config.shopAccessToken },
    data: { limit: 1, sort: [{ field: 'productNumber', order: 'DESC' }], filter: [{ type: 'equals', field: 'parentId', value: null }] },
  });
  const product = ((await response.json()) as { elements: { translated: { name: string }; productNumber: string }[] }).elements[0];
  if (!product) throw new Error('the catalogue has no products');
  return { name: product.translated.name, productNumber: product.productNumber };
}

/**
 * A product of the demo catalogue that can no longer be bought (a closeout out of stock,
 * `available` false), read through the Store API.
 */
export async function soldOutProduct(page: Page): Promise<{ name: string; productNumber: string }> {
  const config = (await (await page.request.get('/runtime-config.json')).json()) as { shopAccessToken: string };
  const response = await page.request.post('/store-api/product', {
    headers: { 'sw-access-key': config.shopAccessToken },
    data: {
      limit: 1,
      filter: [
        { type: 'equals', field: 'parentId', value: null },
        { type: 'equals', field: 'available', value: false },
      ],
    },
  });
  const product = ((await response.json()) as { elements: { translated: { name: string }; productNumber: string }[] }).elements[0];
  if (!product) throw new Error('the catalogue has no sold-out product');
  return { name: product.translated.name, productNumber: product.productNumber };
}

/**
 * The guide highlights a product found by `term` (name or product number) in the
 * cockpit's catalogue search; answers the name of the product shown. Labels in English
 * unless `german`.
 */
export async function highlightBySearch(guide: Page, term: string, german = false): Promise<string> {
  await guide.getByRole('button', { name: german ? 'Hervorheben' : 'Highlight product', exact: true }).click();
  const dialog = guide.getByRole('dialog', { name: german ? 'Ein Produkt hervorheben' : 'Highlight a product' });
  await dialog.getByRole('searchbox', { name: german ? 'Produkte suchen' : 'Search products' }).fill(term);
  const results = dialog.getByRole('list', { name: german ? 'Suchergebnisse' : 'Search results' });
  const first = results.getByRole('listitem').first();
  await expect(first).toBeVisible();
  const name = (await first.getAttribute('aria-label')) ?? '';
  await first.getByRole('button', { name: german ? `${name} hervorheben` : `Highlight ${name}` }).click();
  await expect(dialog).toBeHidden();
  return name;
}

/** A second guide user (role guide), made by the demo admin through the Admin API. */
export async function createGuideUser(page: Page, username: string, password: string): Promise<void> {
  const token = await page.request.post('/api/oauth/token', {
    data: { grant_type: 'password', client_id: 'administration', username: 'admin', password: 'shopware' },
  });
  expect(token.ok(), await token.text()).toBeTruthy();
  const { access_token } = (await token.json()) as { access_token: string };
  const created = await page.request.post('/api/user', {
    headers: { Authorization: `Bearer ${access_token}` },
    data: { username, password, firstName: username, lastName: 'Guide', email: `${username}@example.com`, role: 'guide' },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
}

/** The guide starts the presentation (confirming the dialog); it is live. */
export async function startPresentation(guide: Page): Promise<void> {
  await guide.getByRole('button', { name: 'Start presentation' }).click();
  await guide.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();
  await expect(guide.getByTestId('presentation-phase')).toHaveText('Live');
}

/**
 * The opening of the specs whose guide runs a session: guests named `names` wait in the
 * demo room (each in its own context, from `newPage`), the demo guide logs in and starts
 * the presentation, and every guest is taken into the live room.
 */
export async function startWithGuests<Names extends string[]>(
  browser: Browser,
  newPage: (browser: Browser) => Promise<Page>,
  ...names: Names
): Promise<{ guide: Page; guests: { [K in keyof Names]: Page } }> {
  const guests: Page[] = [];
  for (const name of names) {
    const page = await newPage(browser);
    await joinAsGuest(page, name);
    guests.push(page);
  }
  const guide = await newPage(browser);
  await guideLogsIn(guide);
  await startPresentation(guide);
  for (const page of guests) await expect(page).toHaveURL(/\/presentation\/demo$/);
  return { guide, guests: guests as { [K in keyof Names]: Page } };
}

/** Every tool of the room's toolbar named `name` (buttons and the Leave link) stands in one row: nothing wrapped. */
export async function expectToolbarInOneRow(page: Page, name: string): Promise<void> {
  const toolbar = page.getByRole('toolbar', { name });
  await expect(toolbar).toBeVisible();
  const tops = await toolbar.locator('.button').evaluateAll((tools) => tools.map((tool) => Math.round(tool.getBoundingClientRect().top)));
  expect(tops.length).toBeGreaterThanOrEqual(10);
  // A pixel apart is the same row; a wrapped tool is a whole row (about 45 px) lower.
  expect(Math.max(...tops) - Math.min(...tops), `the tools' tops: ${tops.join(', ')}`).toBeLessThanOrEqual(4);
}

/** A price as text with its spaces made plain (formatted prices hold no-break spaces). */
export const plainPrice = (text: string | null): string => (text ?? '').replace(/\s/g, ' ').trim();

/**
 * The price the shop's own product page shows for `productId` (its buy box), read in a
 * new tab of `page`'s browser context (the same customer or guest), in German when
 * `german`; the tab is closed again. Item 14 of issue #14: the room shows this same gross price.
 */
export async function shopPriceOf(page: Page, productId: string, german = false): Promise<string> {
  const shop = await page.context().newPage();
  try {
    await shop.goto(`${german ? '/de-DE' : ''}/detail/${productId}`);
    const price = shop.getByTestId('product-price');
    await expect(price).toContainText('€');
    return plainPrice(await price.textContent());
  } finally {
    await shop.close();
  }
}

/**
 * Item 7 of issue #14: the cart sidebar's "Go to checkout" (open on `page`) opens the
 * shop's checkout of the same cart, holding `product`, in a new tab while the room stays
 * live; the tab is closed again. Labels and paths in German when `german`.
 */
export async function checkoutOpensInNewTab(page: Page, product: string, german = false): Promise<void> {
  const cart = page.getByRole('region', { name: german ? 'Warenkorb' : 'Cart', exact: true });
  const link = cart.getByRole('link', { name: german ? 'Zur Kasse (öffnet in einem neuen Tab)' : 'Go to checkout (opens in a new tab)' });
  const room = page.url();
  const [checkout] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await expect(checkout).toHaveURL(german ? /\/de-DE\/checkout$/ : /(?<!de-DE)\/checkout$/);
  await expect(checkout.getByText(product).first()).toBeVisible();
  expect(page.url()).toBe(room);
  await expect(page.getByRole('status', { name: german ? 'Live-Verbindung' : 'Live connection' })).toHaveText(german ? 'Verbunden' : 'Connected');
  await checkout.close();
}
