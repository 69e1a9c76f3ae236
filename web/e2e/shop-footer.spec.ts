import { expect, test } from '@playwright/test';

/**
 * The footer leads to real pages of the demo (issue #14, item 16), and the sort labels are
 * the spec's (item 17), in both languages.
 */

test.describe.configure({ timeout: 180_000 });
const slowExpect = expect.configure({ timeout: 30_000 });

interface Texts {
  prefix: string;
  footer: string;
  links: string[];
  headings: Record<string, string>;
  send: string;
  subscribe: string;
  category: string;
  sortBy: string;
  sortings: string[];
}

const FOOTER: Record<'en' | 'de', Texts> = {
  en: {
    prefix: '',
    footer: 'Information',
    links: ['About us', 'Spring inspiration', 'Contact', 'Newsletter'],
    headings: { 'About us': 'About us', Contact: 'Contact', Newsletter: 'Newsletter' },
    send: 'Send',
    subscribe: 'Subscribe',
    category: '/Clothing/',
    sortBy: 'Sort by',
    sortings: ['Name A-Z', 'Name Z-A', 'Lowest price', 'Highest price', 'Top seller', 'Last added'],
  },
  de: {
    prefix: '/de-DE',
    footer: 'Informationen',
    links: ['Über uns', 'Frühlingsinspiration', 'Kontakt', 'Newsletter'],
    headings: { 'Über uns': 'Über uns', Kontakt: 'Kontakt', Newsletter: 'Newsletter' },
    send: 'Senden',
    subscribe: 'Abonnieren',
    category: '/de-DE/Kleidung/',
    sortBy: 'Sortieren nach',
    sortings: ['Name A-Z', 'Name Z-A', 'Niedrigster Preis', 'Höchster Preis', 'Topseller', 'Zuletzt hinzugefügt'],
  },
};

const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

for (const [language, t] of Object.entries(FOOTER)) {
  for (const [size, viewport] of Object.entries(SIZES)) {
    test(`every footer link answers a real page of the demo (${language}, ${size})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(`${t.prefix}/`);
      const footer = page.getByRole('contentinfo').getByRole('navigation', { name: t.footer });
      await slowExpect(footer.getByRole('link')).toHaveText(t.links);
      const targets = await footer.getByRole('link').evaluateAll((links) => links.map((link) => ({ name: link.textContent ?? '', href: link.getAttribute('href') ?? '' })));
      for (const { name, href } of targets) {
        expect(href, name).not.toMatch(/^https?:|\/navigation\//);
        const response = await page.goto(href);
        expect(response?.status(), href).toBe(200);
        await slowExpect(page.locator('main')).not.toContainText(/Page Not Found|Seite nicht gefunden/);
        const heading = t.headings[name];
        if (heading) await slowExpect(page.getByRole('heading', { level: 1, name: heading }).first()).toBeVisible();
        else await slowExpect(page.locator('main .cms-page')).toBeVisible();
      }
      // The contact form and the newsletter sign-up are on their pages.
      await page.goto(targets[2]?.href ?? '/missing-contact-link');
      await slowExpect(page.getByRole('button', { name: t.send })).toBeVisible();
      await page.goto(targets[3]?.href ?? '/missing-newsletter-link');
      await slowExpect(page.getByRole('button', { name: t.subscribe })).toBeVisible();
      // Nothing sticks out sideways (a phone's narrow footer and pages included).
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    });

    // Item 17: the landing page link goes to its SEO path, which shows the landing page.
    test(`the footer's landing page link uses its SEO path (${language}, ${size})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(`${t.prefix}/`);
      const footer = page.getByRole('contentinfo').getByRole('navigation', { name: t.footer });
      const link = footer.getByRole('link', { name: t.links[1] });
      await expect(link).not.toHaveAttribute('href', /\/landingPage\//);
      await expect(link).toHaveAttribute('href', new RegExp(`^${t.prefix}/[a-z-]+/?$`, 'i'));
      await link.click();
      await expect(page).not.toHaveURL(/\/landingPage\//);
      await expect(page.locator('main .cms-page')).toBeVisible();
      await expect(page.getByText(/Page not found|Seite konnte nicht gefunden/i)).toHaveCount(0);
    });

    test(`the sort labels are the spec's (${language}, ${size})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(t.category);
      await slowExpect(page.getByLabel(t.sortBy)).toBeVisible();
      await slowExpect(page.getByLabel(t.sortBy).locator('option')).toHaveText(t.sortings);
    });
  }
}
