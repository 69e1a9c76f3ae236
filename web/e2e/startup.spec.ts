import { expect, test } from '@playwright/test';

test.describe('without a shop endpoint and access token', () => {
  test.beforeEach(async ({ page }) => {
    await page.route('**/runtime-config.json', (route) =>
      route.fulfill({ json: { shopEndpoint: null, shopAccessToken: null, hubUrl: null, livekitUrl: null } }),
    );
  });

  test('the app does not start and says why', async ({ page }) => {
    await page.goto('/guide/demo/login');
    await expect(page.getByRole('heading', { name: 'The app cannot start' })).toBeVisible();
    await expect(
      page.getByText('The shop endpoint and the shop access token must both be set in the configuration.'),
    ).toBeVisible();
    await expect(page.getByLabel('Username')).toHaveCount(0);
  });

  test('it says so in German under /de-DE', async ({ page }) => {
    await page.goto('/de-DE/presentation/demo');
    await expect(
      page.getByText('Der Shop-Endpunkt und der Shop-Zugriffsschlüssel müssen beide in der Konfiguration gesetzt sein.'),
    ).toBeVisible();
  });
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/de-DE/no/such/page');
  await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible();
  await expect(page.getByText('Die Seite konnte nicht gefunden werden.')).toBeVisible();
});
