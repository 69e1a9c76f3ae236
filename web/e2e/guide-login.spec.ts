import { expect, test } from '@playwright/test';

test('a wrong password shows the login failure and stays on the login page', async ({ page }) => {
  await page.goto('/guide/demo/login');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Login failed. Please check your username and password.');
  await expect(page).toHaveURL(/\/guide\/demo\/login$/);
});

test('the German login page speaks German', async ({ page }) => {
  await page.goto('/de-DE/guide/demo/login');
  await page.getByLabel('Benutzername').fill('admin');
  await page.getByLabel('Passwort').fill('falsch');
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Die Anmeldung ist fehlgeschlagen. Bitte überprüfen Sie Benutzername und Passwort.',
  );
});
