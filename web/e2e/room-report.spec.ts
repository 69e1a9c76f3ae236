import { readFile } from 'node:fs/promises';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { guideLogsIn, highlightBySearch, ownServers, startPresentation } from './room';
import { placeOrder, registerCustomer, TEXTS, unique } from './shop';

/*
 * The session report (issue #19, item 5): a guide and a customer run a short session
 * (join, like, add to cart, order), then the guide's report shows exactly those numbers,
 * in English and German, and its CSV download holds them. The guide starts the demo
 * appointment, so this spec runs on its own fresh servers.
 */

const { newPage } = ownServers();

// Joins, registrations and first page loads are slow in a debug build on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

/** The value cell of an overview row. */
const overview = (page: Page, figure: string) =>
  page.locator('table[data-table="summary"] tr').filter({ has: page.getByRole('cell', { name: figure, exact: true }) }).getByRole('cell').nth(1);

test('after a short session the report shows who joined, liked, filled a cart and ordered, and the CSV holds it', async ({ browser }) => {
  test.setTimeout(240_000);
  const customer = await newPage(browser);
  await registerCustomer(customer, {
    firstName: 'Rita',
    lastName: 'Report',
    email: unique('rita'),
    street: 'Main Street 1',
    zipcode: '10115',
    city: 'Berlin',
  });
  await customer.goto('/presentation/demo/prejoin');
  await customer.getByLabel(/privacy policy/).check();
  await customer.getByRole('button', { name: 'Join' }).click();
  await expect(customer).toHaveURL(/\/presentation\/demo\/waiting$/);

  const guide = await newPage(browser);
  await guideLogsIn(guide);
  await startPresentation(guide);
  await expect(customer).toHaveURL(/\/presentation\/demo$/);
  const product = await highlightBySearch(guide, '');

  await test.step('the attendee likes the product and adds it to the cart', async () => {
    await customer.getByTestId('highlighted-product').getByRole('button', { name: 'Details' }).click();
    const modal = customer.getByRole('dialog', { name: product });
    const heart = modal.getByRole('button', { name: `Like ${product}`, exact: true });
    await heart.click();
    // Its name changes once liked.
    await expect(modal.locator('.room-like')).toHaveAttribute('aria-pressed', 'true');
    await modal.getByRole('button', { name: 'Add to cart' }).click();
    await expect(modal.getByText(`${product} is in your cart.`)).toBeVisible();
    await customer.keyboard.press('Escape');
  });

  let orderNumber = '';
  await test.step('the attendee orders', async () => {
    await customer.goto('/checkout');
    await expect(customer.getByRole('heading', { level: 1, name: TEXTS.en.checkout })).toBeVisible();
    await placeOrder(customer, TEXTS.en, TEXTS.en.invoice);
    await expect(customer.getByRole('heading', { level: 1, name: TEXTS.en.thanks })).toBeVisible();
    // The lead names the order number (numbers start at 10000).
    orderNumber = /\b(1\d{4,})\b/.exec((await customer.locator('main').textContent()) ?? '')?.[1] ?? '';
    expect(orderNumber).not.toBe('');
  });

  await test.step('the cockpit links to the report, which shows the session', async () => {
    await guide.getByRole('link', { name: 'Session report' }).click();
    await expect(guide).toHaveURL(/\/guide\/report\/[0-9a-f]{32}$/);
    await expect(guide.getByRole('heading', { level: 1, name: /^Session report: / })).toBeVisible();
    await expect(overview(guide, 'Attendees')).toHaveText('1');
    await expect(overview(guide, 'Orders')).toHaveText('1');
    await expect(overview(guide, 'Attendees who ordered')).toHaveText('1');
    await expect(overview(guide, 'Conversion')).toHaveText('100%');
    const likes = guide.locator('table[data-table="likes"]');
    await expect(likes.getByRole('row', { name: `${product} 1` })).toBeVisible();
    const orders = guide.locator('table[data-table="orders"]');
    await expect(orders.getByRole('row')).toHaveCount(2);
    await expect(orders).toContainText(orderNumber);
    await expect(orders).toContainText('Rita');
    // The ordered product left the cart.
    await expect(guide.locator('table[data-table="carts"]')).toHaveCount(0);
    // The attendance chart is drawn (uPlot, loaded with the page).
    await expect(guide.locator('.time-chart canvas').first()).toBeVisible();
  });

  await test.step('the CSV download holds the same numbers', async () => {
    const [download] = await Promise.all([guide.waitForEvent('download'), guide.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^session-report-[0-9a-f]{32}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv).toContain('Attendees,1');
    expect(csv).toContain('Conversion,1');
    expect(csv).toContain(`${product},1`);
    expect(csv).toContain(orderNumber);
  });

  await test.step('in German, with German numbers', async () => {
    const id = guide.url().split('/').pop() ?? '';
    await guide.goto(`/de-DE/guide/report/${id}`);
    await expect(guide.getByRole('heading', { level: 1, name: /^Sitzungsbericht: / })).toBeVisible();
    await expect(overview(guide, 'Konversion')).toHaveText(/^100\s?%$/);
    await expect(guide.getByRole('button', { name: 'CSV herunterladen' })).toBeVisible();
  });
});

test('the report asks for the guide login first and comes back to it', async ({ browser }) => {
  const page = await newPage(browser);
  const id = 'f'.repeat(32);
  await page.goto(`/guide/report/${id}`);
  await expect(page).toHaveURL(new RegExp(`/guide/${id}/login\\?next=report$`));
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('shopware');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(new RegExp(`/guide/report/${id}$`));
  await expect(page.getByRole('alert')).toHaveText('This appointment does not exist.');
});
