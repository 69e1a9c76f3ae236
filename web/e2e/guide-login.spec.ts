import { expect, test } from '@playwright/test';
import { submitGuideLogin } from './logins';

test('a wrong password shows the login failure and stays on the login page', async ({ page }) => {
  await submitGuideLogin(page, { password: 'not-the-password' });
  await expect(page.getByRole('alert')).toHaveText('Login failed. Please check your username and password.');
  await expect(page).toHaveURL(/\/guide\/demo\/login$/);
});

test('the German login page speaks German', async ({ page }) => {
  // German labels: the helper finds the form by them.
  await submitGuideLogin(page, { german: true, password: 'falsch' });
  await expect(page.getByRole('alert')).toHaveText(
    'Die Anmeldung ist fehlgeschlagen. Bitte überprüfen Sie Benutzername und Passwort.',
  );
});
