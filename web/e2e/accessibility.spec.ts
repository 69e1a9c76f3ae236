import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

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
    await expect(page.locator('main')).toBeVisible();
    await page.waitForLoadState('networkidle');
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const severe = violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')})`);
    expect(severe).toEqual([]);
  });
}

test('quick view and cart sidebar', async ({ page }) => {
  await page.goto('/Clothing/');
  const card = page.getByTestId('product-card').first();
  await card.hover();
  await card.getByRole('button', { name: /^Quick view/ }).click();
  await expect(page.getByRole('dialog', { name: 'Quick view' }).getByRole('button', { name: 'Add to cart' })).toBeVisible();
  const analyze = async () =>
    (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze()).violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`);
  expect(await analyze()).toEqual([]);
  await page.getByRole('dialog', { name: 'Quick view' }).getByRole('button', { name: 'Add to cart' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: /^Shopping cart/ }).click();
  await expect(page.getByRole('dialog', { name: 'Shopping cart' }).getByTestId('cart-item')).toHaveCount(1);
  expect(await analyze()).toEqual([]);
});
