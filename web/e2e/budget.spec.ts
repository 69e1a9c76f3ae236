import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

/** Issue 6 budget: a shop page's first load stays under 200 KB of compressed JavaScript (see the root BENCHMARKS.md). */
const BUDGET_BYTES = 200 * 1024;
const DIST = path.resolve(import.meta.dirname, '..', 'dist');

for (const url of ['/', '/Clothing/', '/Flannel-shirt/SR10003']) {
  test(`first load of ${url} stays under 200 KB of gzip JavaScript`, async ({ page }) => {
    const scripts = new Set<string>();
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith('.js')) scripts.add(pathname);
    });
    await page.goto(url);
    await expect(page.locator('main h1, main .cms-page').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    const bytes = [...scripts].reduce((sum, file) => sum + gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length, 0);
    expect(bytes).toBeLessThan(BUDGET_BYTES);
  });
}
