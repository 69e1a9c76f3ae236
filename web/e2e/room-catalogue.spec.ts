import { expect, test } from '@playwright/test';
import { guideLogsIn } from './logins';
import { expectToolbarInOneRow, highlightBySearch, ownServers, startWithGuests } from './room';

/*
 * The guide's catalogue outside the listing editor and the saved products: browse a
 * category, save products (kept by the shop: a reload still has them), show one to
 * everyone, present the saved ones as an instant listing; on a phone the panel fits.
 * The guide starts the appointment, so this spec runs on its own servers.
 */

const { newPage } = ownServers();

test('the guide browses the catalogue, saves products and presents them', async ({ browser }) => {
  test.setTimeout(180_000);
  const {
    guide,
    guests: [ada],
  } = await startWithGuests(browser, newPage, 'Ada Guest');

  await guide.getByRole('button', { name: 'Catalogue', exact: true }).click();
  // At 1440 px the English tools (the longer words) fit one row, "Leave" included.
  await expectToolbarInOneRow(guide, 'Presentation toolbar');
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
  await guideLogsIn(phone, { german: true });
  await phone.getByRole('button', { name: 'Katalog', exact: true }).click();
  const germanPanel = phone.getByRole('region', { name: 'Katalog' });
  await expect(germanPanel.getByRole('region', { name: 'Gemerkte Produkte' })).toContainText('Noch keine gemerkten Produkte');
  const box = await germanPanel.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390.5);

  // And in English on a phone (issue #14, items 9 and 10): a product saved from the catalogue there.
  await phone.goto('/guide/demo');
  await expect(phone.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  await phone.getByRole('button', { name: 'Catalogue', exact: true }).click();
  const englishPanel = phone.getByRole('region', { name: 'Catalogue' });
  const first = englishPanel.getByRole('list', { name: 'Products of the catalogue' }).getByRole('listitem').first();
  const firstName = (await first.getAttribute('aria-label')) ?? '';
  await first.getByRole('button', { name: `Save ${firstName}` }).click();
  await expect(englishPanel.getByRole('region', { name: 'Saved products' }).getByRole('listitem', { name: firstName })).toBeVisible();
  // Highlighting from the phone, by the whole-catalogue search (item 8).
  const shown = await highlightBySearch(phone, '');
  await expect(ada.getByTestId('highlighted-product')).toContainText(shown);
  const englishBox = await englishPanel.boundingBox();
  expect(englishBox!.x).toBeGreaterThanOrEqual(0);
  expect(englishBox!.x + englishBox!.width).toBeLessThanOrEqual(390.5);
});
