import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { registerCustomer, TEXTS, unique } from './shop';

/**
 * Screenshots of the main shop pages at desktop and phone size in English and German.
 * Under `make test` they go to test-results/ (a smoke run of every page);
 * `npm run screenshots` writes them to docs/screenshots/ for review.
 * SALESROOM_SCREENSHOTS_FORMAT=png writes lossless PNGs instead of the small JPEGs (for viewers that show PNG only).
 */

/** A busy machine and a debug build: pages may take a while. */
const expect = baseExpect.configure({ timeout: 15_000 });

const DIR = path.resolve(import.meta.dirname, '..', process.env.SALESROOM_SCREENSHOTS_DIR ?? 'test-results/screenshots');
const FORMAT = process.env.SALESROOM_SCREENSHOTS_FORMAT === 'png' ? 'png' : 'jpeg';
const SIZES = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
};

/** Scrolls through the page so lazy images load, waits for every shown image, then saves a full-page picture. */
async function shoot(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight) {
      scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    scrollTo(0, 0);
  });
  // Hidden images and lazy ones scrolled out sideways (slider slides) never load: they do not count.
  const pending = () =>
    page.evaluate(() =>
      Array.from(document.images).filter((image) => {
        const rect = image.getBoundingClientRect();
        return !image.complete && image.getClientRects().length > 0 && !(image.loading === 'lazy' && (rect.left >= innerWidth || rect.right <= 0));
      }).length,
    );
  await expect.poll(pending).toBe(0);
  // Nothing sticks out sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${name} overflows`).toBe(0);
  // Toasts of earlier steps are not part of the page.
  await page.locator('.toast').evaluateAll((toasts) => toasts.forEach((toast) => toast.remove()));
  const file = path.join(DIR, `${name}.${FORMAT === 'png' ? 'png' : 'jpg'}`);
  await page.screenshot({ path: file, type: FORMAT, quality: FORMAT === 'jpeg' ? 70 : undefined, fullPage: true, animations: 'disabled', caret: 'hide' });
}

test.beforeAll(() => mkdirSync(DIR, { recursive: true }));

for (const language of ['en', 'de'] as const) {
  for (const size of ['desktop', 'phone'] as const) {
    test.describe(`@screenshots ${language} ${size}`, () => {
      test.describe.configure({ timeout: 120_000 });
      test.use({ viewport: SIZES[size] });

      test('the main pages', async ({ page }) => {
        const t = TEXTS[language];
        const name = (page_: string) => `${page_}-${size}-${language}`;

        await page.goto(t.prefix || '/');
        await expect(page.locator('main .cms-page')).toBeVisible();
        await shoot(page, name('home'));

        await page.goto(t.clothingPath);
        await expect(page.getByRole('heading', { level: 1, name: t.clothing })).toBeVisible();
        await expect(page.getByTestId('product-card').first()).toBeVisible();
        await shoot(page, name('category'));

        await page.goto(t.productPath);
        await expect(page.getByRole('button', { name: t.addToCart })).toBeVisible();
        await shoot(page, name('product'));

        await page.goto(`${t.prefix}/search?search=${t.searchTerm}`);
        await expect(page.getByTestId('product-card').first()).toBeVisible();
        await shoot(page, name('search'));

        await page.goto(`${t.prefix}/no/such/page`);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await shoot(page, name('404'));

        await registerCustomer(page, { firstName: 'Sina', lastName: 'Screenshot', email: unique(`shot-${language}-${size}`), street: 'Bildweg 1', zipcode: '10115', city: 'Berlin' }, t);
        await shoot(page, name('account'));

        await page.goto(t.productPath);
        await page.getByRole('button', { name: t.addToCart }).click();
        await expect(page.getByRole('button', { name: t.cart })).toBeVisible();
        await page.goto(`${t.prefix}/checkout/cart`);
        await expect(page.getByTestId('cart-item').first()).toBeVisible();
        await shoot(page, name('cart'));

        await page.goto(`${t.prefix}/checkout`);
        await expect(page.getByTestId('billing-address')).toContainText('Bildweg 1');
        await shoot(page, name('checkout'));
      });
    });
  }
}
