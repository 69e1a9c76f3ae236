import { expect, test } from '@playwright/test';
import { expectAccessible } from './axe';

/** The main shop pages have no serious or critical accessibility violations (axe-core, WCAG 2 A/AA). */
const pages = [
  ['home', '/'],
  ['category', '/Clothing/'],
  ['product', '/Flannel-shirt/SR10003'],
  ['search', '/search?search=shirt'],
  ['cart', '/checkout/cart'],
  ['login', '/account/login'],
  ['registration', '/account/register'],
  ['404', '/no/such/page'],
  ['German category', '/de-DE/Kleidung/'],
  ['German product', '/de-DE/Flanellhemd/SR10003'],
] as const;

for (const [name, path] of pages) {
  test(`${name} page`, async ({ page }) => {
    await page.goto(path);
    // A debug build on a busy machine may take a while for the first paint.
    await expect(page.locator('main')).toBeVisible({ timeout: 15_000 });
    await page.waitForLoadState('networkidle');
    // The page itself is checked, not a 404 in its place.
    if (name !== '404') await expect(page.getByRole('heading', { name: /^(Page Not Found|Seite nicht gefunden)$/ })).toHaveCount(0);
    await expectAccessible(page);
  });
}

test('quick view and cart sidebar', async ({ page }) => {
  await page.goto('/Clothing/');
  const card = page.getByTestId('product-card').first();
  await card.hover();
  await card.getByRole('button', { name: /^Quick view/ }).click();
  await expect(page.getByRole('dialog', { name: 'Quick view' }).getByRole('button', { name: 'Add to cart' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('dialog', { name: 'Quick view' }).getByRole('button', { name: 'Add to cart' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: /^Shopping cart/ }).click();
  await expect(page.getByRole('dialog', { name: 'Shopping cart' }).getByTestId('cart-item')).toHaveCount(1);
  await expectAccessible(page);
});
