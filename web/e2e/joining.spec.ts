import { expect, test, type Page } from '@playwright/test';
import { joinAsGuest, submitGuideLogin } from './logins';

/** Grace joins `appointment` from its pre-join page; where she lands is the test's. */
const graceJoins = (page: Page, appointment: string) => joinAsGuest(page, 'Grace Guest', { appointment, waiting: false });

test('a guest needs a name and the privacy consent', async ({ page }) => {
  await page.goto('/presentation/demo/prejoin');
  await page.getByRole('button', { name: 'Join' }).click();
  await expect(page.getByLabel('Your name')).toHaveAccessibleDescription('Input required');
  await expect(page.getByLabel(/privacy policy/)).toHaveAccessibleDescription('Please accept the privacy policy to join.');
  await expect(page).toHaveURL(/\/prejoin$/);
});

test('a guest keeps the session on reload and the name in a cookie for a day', async ({ page, context }) => {
  await graceJoins(page, 'demo');
  await expect(page.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  const cookie = (await context.cookies()).find(({ name }) => name === 'guestName');
  expect(cookie?.value).toBe(encodeURIComponent('Grace Guest'));
  expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(86_400 - 60);
  expect(cookie!.expires - Date.now() / 1000).toBeLessThanOrEqual(86_400);

  await page.reload();
  // The waiting room until the guide starts (another spec may have started it).
  await expect(page).toHaveURL(/\/presentation\/demo(\/waiting)?$/);
  await expect(page.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
});

test('an unknown appointment says so before asking for a name', async ({ page }) => {
  await page.goto('/presentation/no-such-appointment/prejoin');
  await expect(page).toHaveURL(/\/presentation\/no-such-appointment\/not-found$/);
  await expect(page.getByText('This presentation could not be found.')).toBeVisible();
  await expect(page.getByLabel('Your name')).toHaveCount(0);
});

test('a customers-only appointment offers login and registration before asking a guest for a name', async ({ page }) => {
  await page.goto('/presentation/demo-customers/prejoin');
  await expect(page).toHaveURL(/\/presentation\/demo-customers\/denied$/);
  await expect(page.getByRole('heading', { name: 'Access denied' })).toBeVisible();
  await expect(page.getByText('This presentation is open to customers only.')).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/presentation/demo-customers/login');
  await expect(main.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/presentation/demo-customers/register');
  await expect(page.getByLabel('Your name')).toHaveCount(0);
});

test('a guide asking for an unknown appointment gets the not-found screen', async ({ page }) => {
  await submitGuideLogin(page, { appointment: 'no-such-appointment', localePrefix: '/en-GB' });
  await expect(page).toHaveURL(/\/en-GB\/guide\/no-such-appointment\/not-found$/);
  await expect(page.getByText('This appointment could not be found.')).toBeVisible();
});
