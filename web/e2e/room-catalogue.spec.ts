import { expect, test, type Page } from '@playwright/test';
import { ownServers } from './room';

/*
 * The guide's catalogue outside the listing editor and the saved products: browse a
 * category, save products (kept by the shop: a reload still has them), show one to
 * everyone, present the saved ones as an instant listing; on a phone the panel fits.
 * The guide starts the appointment, so this spec runs on its own servers.
 */

const { newPage } = ownServers();

async function logInAsGuide(page: Page, prefix = ''): Promise<void> {
  await page.goto(`${prefix}/guide/demo/login`);
  await page.getByLabel(prefix ? 'Benutzername' : 'Username').fill('admin');
  await page.getByLabel(prefix ? 'Passwort' : 'Password').fill('shopware');
  await page.getByRole('button', { name: prefix ? 'Anmelden' : 'Log in' }).click();
  await expect(page.getByRole('status', { name: prefix ? 'Live-Verbindung' : 'Live connection' })).toBeVisible();
}

test('the guide browses the catalogue, saves products and presents them', async ({ browser }) => {
  test.setTimeout(180_000);
  const ada = await newPage(browser);
  await ada.goto('/presentation/demo/prejoin');
  await ada.getByLabel('Your name').fill('Ada Guest');
  await ada.getByLabel(/privacy policy/).check();
  await ada.getByRole('button', { name: 'Join' }).click();
  const guide = await newPage(browser);
  await logInAsGuide(guide);
  await expect(guide.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  await guide.getByRole('button', { name: 'Start presentation' }).click();
  await guide.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();
  await expect(ada).toHaveURL(/\/presentation\/demo$/);

  await guide.getByRole('button', { name: 'Catalogue', exact: true }).click();
  const panel = guide.getByRole('region', { name: 'Catalogue' });
  const results = panel.getByRole('list', { name: 'Products of the catalogue' });
  const saved = panel.getByRole('region', { name: 'Saved products' });
  await expect(saved).toContainText('No saved products yet.');
  await expect(results.getByRole('listitem').first()).toBeVisible();

  // A category narrows the catalogue to its products.
  const category = panel.getByLabel('Category');
  const options = await category.locator('option').allTextContents();
  expect(options.length).toBeGreaterThan(2);
  const before = await results.getByRole('listitem').first().getAttribute('aria-label');
  await category.selectOption({ index: 2 });
  await expect(results.getByRole('listitem').first()).not.toHaveAttribute('aria-label', before ?? '');

  const names: string[] = [];
  for (const index of [0, 1]) {
    const row = results.getByRole('listitem').nth(index);
    const name = (await row.getAttribute('aria-label')) ?? '';
    names.push(name);
    await row.getByRole('button', { name: `Save ${name}` }).click();
    await expect(saved.getByRole('listitem', { name })).toBeVisible();
  }
  await expect(results.getByRole('listitem', { name: names[0] }).getByRole('button', { name: `Save ${names[0]}` })).toHaveText('Saved');

  // Kept by the shop: after a reload of the cockpit they are still there, in order.
  await guide.reload();
  await expect(guide.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  await guide.getByRole('button', { name: 'Catalogue', exact: true }).click();
  await expect(saved.getByRole('listitem')).toHaveCount(2);
  await expect(saved.getByRole('listitem').first()).toHaveAttribute('aria-label', names[0]!);

  // Shown to everyone from the saved products.
  await saved.getByRole('button', { name: `Show ${names[1]} to everyone` }).click();
  await expect(ada.getByTestId('highlighted-product')).toContainText(names[1]!);

  // Presented together: a new instant listing with both, published for the attendee.
  await saved.getByRole('button', { name: 'Present as instant listing' }).click();
  const editor = guide.getByRole('region', { name: 'Instant listing' });
  await expect(editor.getByRole('heading', { name: 'Products in the listing (2)' })).toBeVisible();
  await editor.getByRole('button', { name: 'Publish' }).click();
  await guide.getByRole('dialog', { name: 'Publish the listing?' }).getByRole('button', { name: 'Publish now' }).click();
  await expect(ada.getByTestId('slide').getByRole('heading', { level: 2 }).first()).toHaveText('Our selection');
  await expect(ada.getByTestId('slide').getByTestId('room-product')).toHaveCount(2);

  // Removed one by one, then all (after a confirmation).
  await saved.getByRole('button', { name: `Remove ${names[0]} from the saved products` }).click();
  await expect(saved.getByRole('listitem')).toHaveCount(1);
  await saved.getByRole('button', { name: 'Remove all' }).click();
  await guide.getByRole('dialog', { name: 'Remove all saved products?' }).getByRole('button', { name: 'Remove all' }).click();
  await expect(saved).toContainText('No saved products yet.');

  // On a phone the panel fits the width, in German.
  const phone = await newPage(browser);
  await phone.setViewportSize({ width: 390, height: 844 });
  await logInAsGuide(phone, '/de-DE');
  await phone.getByRole('button', { name: 'Katalog', exact: true }).click();
  const germanPanel = phone.getByRole('region', { name: 'Katalog' });
  await expect(germanPanel.getByRole('region', { name: 'Gemerkte Produkte' })).toContainText('Noch keine gemerkten Produkte');
  const box = await germanPanel.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390.5);
});
