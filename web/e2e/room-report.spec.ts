import { readFile } from 'node:fs/promises';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { guideLogsIn, joinAsGuest, submitBackofficeLogin, submitGuideLogin } from './logins';
import { highlightBySearch, ownServers, startPresentation } from './room';
import { placeOrder, registerCustomer, TEXTS, unique } from './shop';

/*
 * The session report (issue #19, item 5): a guide and a customer run a short session
 * (join, like, add to cart, react, vote in a poll, order), then the guide's report shows
 * exactly those numbers, in English and German, and its CSV download holds them. The guide starts the demo
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
  await joinAsGuest(customer, null);

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

  await test.step('the attendee reacts twice and votes in the guide\'s poll', async () => {
    for (let i = 0; i < 2; i++) await customer.getByTestId('react-heart').click();
    await expect(guide.getByTestId('reaction-total-heart')).toHaveText('2');
    const form = guide.getByTestId('poll-new');
    await form.locator('summary').click();
    await form.getByLabel('Question').fill('Which colour?');
    await form.getByLabel('Answer 1').fill('Red');
    await form.getByLabel('Answer 2').fill('Blue');
    await form.getByRole('button', { name: 'Create poll' }).click();
    const poll = (page: Page) => page.getByTestId('poll').filter({ hasText: 'Which colour?' });
    await poll(guide).getByRole('button', { name: 'Open', exact: true }).click();
    await poll(customer).getByRole('radio', { name: 'Blue' }).check();
    await poll(customer).getByTestId('poll-vote').click();
    await expect(poll(customer)).toContainText('Your vote is counted.');
    await poll(guide).getByRole('button', { name: 'Close', exact: true }).click();
    await expect(poll(guide)).toHaveAttribute('data-status', 'closed');
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
    await expect(overview(guide, 'Peak viewers')).toHaveText('1');
    await expect(overview(guide, 'Reactions')).toHaveText('2');
    const reactions = guide.locator('table[data-table="reactions"]');
    await expect(reactions.getByRole('row', { name: 'Heart 2' })).toBeVisible();
    const polls = guide.locator('table[data-table="polls"]');
    await expect(polls.getByRole('row', { name: 'Which colour? Red 0 1' })).toBeVisible();
    await expect(polls.getByRole('row', { name: 'Which colour? Blue 1 1' })).toBeVisible();
    // The viewers over time: the attendee connected, one at most.
    await expect(guide.locator('table[data-table="viewers"] tbody tr').first()).toContainText('1');
    const likes = guide.locator('table[data-table="likes"]');
    await expect(likes.getByRole('row', { name: `${product} 1` })).toBeVisible();
    const orders = guide.locator('table[data-table="orders"]');
    await expect(orders.getByRole('row')).toHaveCount(2);
    await expect(orders).toContainText(orderNumber);
    await expect(orders).toContainText('Rita');
    // The ordered product left the cart, and counts as ordered.
    await expect(guide.locator('table[data-table="carts"]').getByRole('row', { name: `${product} 0 0 1` })).toBeVisible();
    // The attendance chart is drawn (uPlot, loaded with the page).
    await expect(guide.locator('.time-chart canvas').first()).toBeVisible();
  });

  await test.step('the report is the guide\'s page: no shop header and menu; its charts name each time once and their legends show values', async () => {
    await expect(guide.locator('header.header')).toHaveCount(0);
    await expect(guide.locator('.header__nav')).toHaveCount(0);
    const charts = guide.locator('.time-chart');
    expect(await charts.count()).toBeGreaterThan(1);
    for (const chart of await charts.all()) {
      await expect(chart).toHaveAttribute('data-time-ticks', /.+/);
      // A session of a few minutes: the axis counts seconds or minutes, never one time twice.
      const labels = JSON.parse((await chart.getAttribute('data-time-ticks')) ?? '[]') as string[];
      expect(labels.length, 'ticks on the time axis').toBeGreaterThan(0);
      expect(labels.filter((label) => label === ''), `a time repeated along the axis: ${labels.join(' | ')}`).toEqual([]);
      expect(new Set(labels).size, labels.join(' | ')).toBe(labels.length);
      // Away from the cursor, every series of the legend shows its latest value.
      const values = chart.locator('.u-legend .u-value');
      expect(await values.count()).toBeGreaterThan(1);
      for (const value of await values.all()) await expect(value).toHaveText(/\d/);
    }
  });

  await test.step('the CSV download holds the same numbers', async () => {
    const [download] = await Promise.all([guide.waitForEvent('download'), guide.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^session-report-[0-9a-f]{32}\.csv$/);
    const csv = await readFile(await download.path(), 'utf8');
    expect(csv).toContain('Attendees,1');
    expect(csv).toContain('Conversion,1');
    expect(csv).toContain(`${product},1`);
    expect(csv).toContain(orderNumber);
    expect(csv).toContain('Peak viewers,1');
    expect(csv).toContain('Reactions,2');
    expect(csv).toContain('Which colour?,Blue,1,1');
  });

  await test.step('in German, with German numbers', async () => {
    const id = guide.url().split('/').pop() ?? '';
    await guide.goto(`/de-DE/guide/report/${id}`);
    await expect(guide.getByRole('heading', { level: 1, name: /^Sitzungsbericht: / })).toBeVisible();
    await expect(overview(guide, 'Konversion')).toHaveText(/^100\s?%$/);
    await expect(overview(guide, 'Höchstzahl Zuschauende')).toHaveText('1');
    await expect(guide.getByRole('heading', { level: 2, name: 'Umfragen' })).toBeVisible();
    await expect(guide.getByRole('button', { name: 'CSV herunterladen' })).toBeVisible();
  });

  await test.step('on a phone, in both languages, the report fits the width (wide tables scroll inside themselves)', async () => {
    const id = guide.url().split('/').pop() ?? '';
    await guide.setViewportSize({ width: 390, height: 844 });
    for (const [prefix, heading] of [
      ['', /^Session report: /],
      ['/de-DE', /^Sitzungsbericht: /],
    ] as const) {
      await guide.goto(`${prefix}/guide/report/${id}`);
      await expect(guide.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(guide.locator('.time-chart canvas').first()).toBeVisible();
      // The charts' legends name the time in the page's language (uPlot's own word is "Value").
      await expect(guide.locator('.u-legend').first()).toContainText(prefix ? 'Zeit' : 'Time');
      await expect(guide.locator('.u-legend').first()).not.toContainText('Value');
      const overflow = await guide.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `the page scrolls sideways by ${overflow} px (${prefix || 'en'})`).toBeLessThanOrEqual(0);
      for (const chart of await guide.locator('.time-chart canvas').all()) {
        const box = await chart.boundingBox();
        expect(box && box.x + box.width, 'a chart wider than the phone').toBeLessThanOrEqual(390);
      }
      // For people to look at (test-results), not compared.
      await guide.screenshot({ path: test.info().outputPath(`report-phone${prefix.replace('/', '-') || '-en'}.png`), fullPage: true });
    }
  });
});

test('the backoffice\'s login opens the report, without a second login', async ({ browser }) => {
  const page = await newPage(browser);
  await submitBackofficeLogin(page);
  await expect(page.getByRole('navigation', { name: 'Backoffice' })).toBeVisible();
  const id = 'f'.repeat(32);
  await page.goto(`/guide/report/${id}`);
  await expect(page).toHaveURL(new RegExp(`/guide/report/${id}$`));
  // Asked with the backoffice's token: the server's answer, no login form.
  await expect(page.getByRole('alert')).toHaveText('This appointment does not exist.');
  await expect(page.getByLabel('Password')).toHaveCount(0);
});

test('the report asks for the guide login first and comes back to it', async ({ browser }) => {
  const page = await newPage(browser);
  const id = 'f'.repeat(32);
  await page.goto(`/guide/report/${id}`);
  await expect(page).toHaveURL(new RegExp(`/guide/${id}/login\\?next=report$`));
  await submitGuideLogin(page, { open: false });
  await expect(page).toHaveURL(new RegExp(`/guide/report/${id}$`));
  await expect(page.getByRole('alert')).toHaveText('This appointment does not exist.');
});
