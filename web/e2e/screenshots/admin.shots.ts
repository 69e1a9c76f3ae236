import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ownServers } from '../room';
import { submitBackofficeLogin } from '../logins';

/*
 * The backoffice (/admin) on the demo shop at desktop (1440×900) and phone (390×844)
 * sizes, in English and German: login, the lists, an appointment, a presentation with its
 * slide builder and attendee preview, a product, the CSV import and the users. Written to
 * docs/screenshots/admin-*.png (`npm run screenshots:room`).
 */

const OUT = path.resolve(import.meta.dirname, '../../../docs/screenshots');
const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
type Size = keyof typeof SIZES;

const { newPage: newRoomPage } = ownServers();

async function newPage(browser: Browser, size: Size): Promise<Page> {
  const page = await newRoomPage(browser);
  await page.setViewportSize(SIZES[size]);
  return page;
}

async function shot(page: Page, name: string) {
  await page.evaluate(() => document.fonts.ready);
  await page.mouse.move(0, 0);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: path.join(OUT, `admin-${name}.png`), animations: 'disabled' });
}

const LISTS = ['appointments', 'presentations', 'products', 'categories', 'manufacturers', 'promotions', 'import', 'users'] as const;

for (const size of Object.keys(SIZES) as Size[]) {
  test(`the backoffice on ${size}, English and German`, async ({ browser }) => {
    test.setTimeout(240_000);
    const page = await newPage(browser, size);
    await page.goto('/admin/login');
    await shot(page, `login-${size}-en`);
    await submitBackofficeLogin(page, { open: false });
    await expect(page.getByRole('navigation', { name: 'Backoffice' })).toBeVisible();

    for (const [lang, prefix] of [
      ['en', ''],
      ['de', '/de-DE'],
    ] as const) {
      for (const list of LISTS) {
        await page.goto(`${prefix}/admin/${list}`);
        await expect(page.getByRole('navigation', { name: /Backoffice/ })).toBeVisible();
        await shot(page, `${list}-${size}-${lang}`);
      }
      // One record of each kind that has an editor: the first link in the list's table.
      for (const list of ['appointments', 'presentations', 'products'] as const) {
        await page.goto(`${prefix}/admin/${list}`);
        const first = page.getByRole('table').getByRole('link').first();
        await first.click();
        await expect(page).toHaveURL(/\/admin\/[a-z]+\/[0-9a-f]{32}$/);
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await shot(page, `${list.replace(/s$/, '')}-editor-${size}-${lang}`);
      }
    }
  });
}
