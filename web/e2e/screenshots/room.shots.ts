import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startServers, type Servers } from '../global-setup';

/*
 * The guide's cockpit and the attendee's view at desktop (1440×900) and phone (390×844)
 * sizes: waiting room, running presentation on a product slide, sidebars open, the
 * product modal. Written to docs/screenshots/room-*.png.
 */

const OUT = path.resolve(import.meta.dirname, '../../../docs/screenshots');
const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

let servers: Servers;

test.use({ actionTimeout: 15_000 });

test.beforeAll(async () => {
  servers = await startServers();
});

test.afterAll(async () => {
  await servers?.teardown();
});

async function newPage(browser: Browser, size: keyof typeof SIZES): Promise<Page> {
  const context = await browser.newContext({ baseURL: servers.origin, viewport: SIZES[size], deviceScaleFactor: 1 });
  return context.newPage();
}

async function shot(page: Page, name: string) {
  // Fonts, images and the debounced layout settle first.
  await page.evaluate(() => document.fonts.ready);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: path.join(OUT, `room-${name}.png`), animations: 'disabled' });
}

test('room screenshots', async ({ browser }) => {
  test.setTimeout(300_000);
  const attendees = { desktop: await newPage(browser, 'desktop'), phone: await newPage(browser, 'phone') };
  for (const [size, page] of Object.entries(attendees)) {
    await page.goto('/presentation/demo/prejoin');
    await shot(page, `prejoin-${size}`);
    await page.getByLabel('Your name').fill(size === 'desktop' ? 'Ada Attendee' : 'Pia Phone');
    await page.getByLabel(/privacy policy/).check();
    await page.getByRole('button', { name: 'Join' }).click();
    await expect(page.getByRole('heading', { name: 'The presentation will start soon' })).toBeVisible();
    await shot(page, `waiting-${size}`);
  }

  const guides = { desktop: await newPage(browser, 'desktop'), phone: await newPage(browser, 'phone') };
  for (const page of Object.values(guides)) {
    await page.goto('/guide/demo/login');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('shopware');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  }
  const guide = guides.desktop;
  await shot(guide, 'guide-not-started-desktop');
  await guide.getByRole('button', { name: 'Start presentation' }).click();
  await guide.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();
  for (const page of Object.values(attendees)) await expect(page.getByTestId('slide-position')).toHaveText('Slide 1');

  // To the first slide with products.
  const slide = attendees.desktop.getByTestId('slide');
  const thumbs = guide.locator('.slide-navigator').getByRole('button', { name: /^Slide \d+: / });
  const count = await thumbs.count();
  for (let index = 0; index < count; index += 1) {
    await thumbs.nth(index).click();
    await expect(slide).toHaveAttribute('data-slide-index', String(index + 1));
    await expect(slide).toHaveAttribute('aria-busy', 'false');
    if ((await slide.getByTestId('room-product').count()) > 0) break;
  }
  for (const [size, page] of Object.entries(attendees)) {
    await expect(page.getByTestId('room-product').first()).toBeVisible();
    await shot(page, `attendee-slide-${size}`);
  }
  await guide.getByRole('region', { name: 'Participants' }).getByRole('listitem').first().getByRole('button').first().click();
  await shot(guide, 'guide-running-desktop');
  await shot(guides.phone, 'guide-running-phone');

  for (const [size, page] of Object.entries(attendees)) {
    // The second product: the first of the demo slide is sold out.
    const product = page.getByTestId('room-product').nth(1);
    await product.getByRole('button', { name: /^Like / }).first().click();
    await page.getByRole('button', { name: /^Likes/ }).click();
    await shot(page, `attendee-sidebar-${size}`);
    await page.getByRole('button', { name: 'Close Likes' }).click();
    await product.getByRole('button', { name: /^Details/ }).first().click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await shot(page, `attendee-product-modal-${size}`);
    await page.keyboard.press('Escape');
  }
});
