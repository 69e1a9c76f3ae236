import { expect, type Page, test } from '@playwright/test';
import { TEXTS } from './shop';

/**
 * A guest's first visit asks nothing that fails (issue #14, item 18): the app learns from
 * the context whether anyone is logged in instead of asking for the customer and getting 403.
 */

function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? '';
    // Leaving a page cancels what it still loads (pictures of the category just left): the
    // browser's abort, not a request that failed.
    if (error === 'net::ERR_ABORTED') return;
    problems.push(`failed: ${request.method()} ${request.url()} ${error}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.request().method()} ${response.url()}`);
  });
  return problems;
}

// The shared test machine can be slow to start the app; a failed request, not slowness, is what fails here.
test.describe.configure({ timeout: 120_000 });
const slowExpect = expect.configure({ timeout: 30_000 });

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

for (const [language, t] of Object.entries(TEXTS)) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    test(`a guest's first visit to home, a category and a product fails no request (${language}, ${size})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const problems = watch(page);
      await page.goto(`${t.prefix}/`);
      // On a phone the navigation waits in the menu drawer: the home page's content shows it loaded.
      await slowExpect(page.locator('main .cms-page')).toBeVisible();
      await page.goto(t.clothingPath);
      await slowExpect(page.getByRole('heading', { level: 1, name: t.clothing })).toBeVisible();
      await page.goto(t.productPath);
      await slowExpect(page.getByRole('button', { name: t.addToCart })).toBeVisible();
      // Whatever loads after the first paint (wishlist, cart, recommendations) has its turn too.
      await page.waitForLoadState('networkidle');
      expect(problems).toEqual([]);
    });
  }
}
