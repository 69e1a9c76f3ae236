import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { joinAsGuest, submitBackofficeLogin } from './logins';

/*
 * Issue #31, items 5 and 7, against the demo shop: an appointment planned in Berlin keeps
 * its time and zone and every viewer sees it in their own zone; the merchant writes the
 * legal pages, which the shop opens as its shop-page modal from the footer and wherever it
 * asks for consent.
 */

async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL: process.env.SALESROOM_BASE_URL, viewport: { width: 1440, height: 900 }, ...options });
  return context.newPage();
}

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('an appointment planned in Berlin keeps its time and zone; viewers see it in their own zone', async ({ browser }) => {
  test.setTimeout(120_000);
  const id = stamp();
  // The merchant's browser runs in UTC: the appointment's zone must not fall back to it.
  const admin = await newPage(browser, { timezoneId: 'UTC', locale: 'en-US' });
  await submitBackofficeLogin(admin);
  await expect(admin.getByRole('navigation', { name: 'Backoffice' })).toBeVisible();
  await admin.goto('/admin/appointments/new');
  await expect(admin.getByRole('heading', { name: 'New appointment', level: 1 })).toBeVisible();
  await admin.getByLabel('Name (English)').fill(`Berlin evening ${id}`);
  await admin.getByLabel('Presentation', { exact: true }).selectOption({ index: 1 });
  await admin.getByLabel('Path (part of the invitation link)').fill(`berlin-evening-${id}`);
  await admin.getByLabel('Time zone').selectOption('Europe/Berlin');
  await admin.getByLabel('Start', { exact: true }).fill('2027-12-01T18:00');
  // The start in the merchant's own zone, beside the field.
  await expect(admin.getByLabel('Start', { exact: true })).toHaveAccessibleDescription('In your time zone: Wed, Dec 1, 2027, 5:00 PM UTC');
  await admin.getByRole('button', { name: 'Create' }).click();
  await expect(admin.getByRole('heading', { name: `Appointment: Berlin evening ${id}`, level: 1 })).toBeVisible();

  // Opened again: 18:00 in Berlin, not 17:00 in UTC.
  await admin.reload();
  await expect(admin.getByLabel('Time zone')).toHaveValue('Europe/Berlin');
  await expect(admin.getByLabel('Start', { exact: true })).toHaveValue('2027-12-01T18:00');

  // A visitor in New York sees it at noon, their time.
  const visitor = await newPage(browser, { timezoneId: 'America/New_York', locale: 'en-US' });
  await visitor.goto('/presentations');
  const entry = visitor.getByRole('listitem', { name: `Berlin evening ${id}` });
  await expect(entry.getByTestId('presentation-start')).toHaveText('Starts Wednesday, December 1, 2027 at 12:00 PM EST');
  // One in Berlin at 18:00, in German.
  const besucher = await newPage(browser, { timezoneId: 'Europe/Berlin', locale: 'de-DE' });
  await besucher.goto('/de-DE/presentations');
  await expect(besucher.getByRole('listitem', { name: `Berlin evening ${id}` }).getByTestId('presentation-start')).toHaveText(
    'Beginnt am Mittwoch, 1. Dezember 2027 um 18:00 MEZ',
  );
});

test('the waiting screen names the planned start in the attendee\'s own zone; the room opens the legal pages as its shop-page modal', async ({ browser }) => {
  const id = stamp();
  const guest = await newPage(browser, { timezoneId: 'America/New_York', locale: 'en-US' });
  const login = await guest.request.post('/api/oauth/token', {
    data: { grant_type: 'password', client_id: 'administration', username: 'admin', password: 'shopware' },
  });
  const headers = { Authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
  const presentations = (await (await guest.request.post('/api/search/dsr-presentation', { headers, data: { limit: 1 } })).json()) as { data: { id: string }[] };
  // Open since five minutes (joinable), planned in Berlin.
  const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000);
  const created = await guest.request.post('/api/dsr-appointment?_response=true', {
    headers,
    data: {
      name: `Waiting ${id}`,
      presentationId: presentations.data[0]!.id,
      presentationPath: `waiting-${id}`,
      mode: 'guided',
      timeZone: 'Europe/Berlin',
      accessibleFrom: start.toISOString(),
      accessibleTo: new Date(Date.now() + 2 * 3_600_000).toISOString(),
    },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  await joinAsGuest(guest, 'Wanda Waiting', { appointment: `waiting-${id}` });
  const inNewYork = new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'America/New_York',
    timeZoneName: 'short',
  }).format(start);
  await expect(guest.getByTestId('waiting-start')).toHaveText(`Starts ${inNewYork}`);

  // The guide starts; in the room the legal pages open as the shop-page modal.
  const appointmentId = ((await created.json()) as { data: { id: string } }).data.id;
  for (const action of ['join-as-guide', 'start']) {
    const answer = await guest.request.post(`/api/_action/dsr/appointment/${appointmentId}/${action}`, { headers });
    expect(answer.ok(), `${action}: ${await answer.text()}`).toBeTruthy();
  }
  await expect(guest).toHaveURL(new RegExp(`/presentation/waiting-${id}$`), { timeout: 15_000 });
  await guest.getByRole('button', { name: 'Legal', exact: true }).click();
  await guest.getByRole('dialog', { name: 'Legal' }).getByRole('button', { name: 'Terms and conditions' }).click();
  await expect(guest.getByRole('dialog', { name: 'Terms and conditions' }).getByTestId('shop-page')).toContainText('Prices include VAT');
});

test('the merchant writes the legal pages; the shop opens them from the footer and wherever it asks for consent', async ({ browser }) => {
  test.setTimeout(120_000);
  const id = stamp();
  const admin = await newPage(browser);
  await submitBackofficeLogin(admin);
  await admin.getByRole('navigation', { name: 'Backoffice' }).getByRole('link', { name: 'Legal pages' }).click();
  await expect(admin.getByRole('heading', { name: 'Legal pages', level: 1 })).toBeVisible();
  const imprint = admin.getByRole('form', { name: 'Imprint' });
  // The demo's placeholder (or, on a retry against the same servers, this test's last title).
  await expect(imprint.getByLabel('Title (German)')).toHaveValue(/^Impressum/);
  await imprint.getByLabel('Title (German)').fill(`Impressum ${id}`);
  const text = imprint.getByRole('textbox', { name: 'Text (German)' });
  await text.click();
  await admin.keyboard.press('ControlOrMeta+a');
  await admin.keyboard.type(`Verantwortlich: Demo ${id}`);
  await imprint.getByRole('button', { name: 'Save Imprint' }).click();
  await expect(imprint.getByRole('status')).toHaveText('Saved.');

  // The German footer opens it in the shop-page modal, titled with the page's name.
  const shopper = await newPage(browser, { locale: 'de-DE' });
  await shopper.goto('/de-DE');
  const legal = shopper.getByRole('contentinfo').getByRole('navigation', { name: 'Rechtliches' });
  await legal.getByRole('button', { name: 'Impressum' }).click();
  const dialog = shopper.getByRole('dialog', { name: `Impressum ${id}` });
  await expect(dialog.getByTestId('shop-page')).toContainText(`Verantwortlich: Demo ${id}`);
  await shopper.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // In English: the English text, untouched.
  await shopper.goto('/');
  await shopper.getByRole('contentinfo').getByRole('navigation', { name: 'Legal' }).getByRole('button', { name: 'Imprint' }).click();
  await expect(shopper.getByRole('dialog', { name: 'Imprint' }).getByTestId('shop-page')).toContainText('Salesroom Demo GmbH');
  await shopper.keyboard.press('Escape');

  // Where consent is asked: registration and the room's pre-join.
  await shopper.goto('/account/register');
  await shopper.getByRole('button', { name: 'Read the privacy policy' }).click();
  await expect(shopper.getByRole('dialog', { name: 'Privacy' }).getByTestId('shop-page')).toContainText('video is never recorded');
  await shopper.keyboard.press('Escape');
  await shopper.goto('/de-DE/presentation/demo/prejoin');
  await shopper.getByRole('button', { name: 'Datenschutzerklärung lesen' }).click();
  await expect(shopper.getByRole('dialog', { name: 'Datenschutz' }).getByTestId('shop-page')).toContainText('Video wird nie aufgezeichnet');
});

test('the backoffice in German lists the German names that were saved', async ({ browser }) => {
  const admin = await newPage(browser, { locale: 'de-DE' });
  await submitBackofficeLogin(admin, { german: true });
  await expect(admin.getByRole('navigation', { name: 'Backoffice' })).toBeVisible();
  await admin.goto('/de-DE/admin/categories');
  await expect(admin.getByText('Kleidung', { exact: true })).toBeVisible();
  await expect(admin.getByText('Clothing', { exact: true })).toHaveCount(0);
  await admin.goto('/de-DE/admin/appointments');
  await admin.getByLabel('Termine suchen').fill('demo');
  await expect(admin.getByRole('link', { name: 'Herbstkollektion live', exact: true })).toBeVisible();
  // Its editor is titled with the German name too.
  await admin.getByRole('link', { name: 'Herbstkollektion live', exact: true }).click();
  await expect(admin.getByRole('heading', { level: 1 })).toContainText('Herbstkollektion live');
  await expect(admin.getByRole('heading', { level: 1 })).not.toContainText('Autumn collection live');
  await admin.goto('/de-DE/admin/appointments');
  // In English, the English names.
  await admin.goto('/admin/appointments');
  await admin.getByLabel('Search appointments').fill('demo');
  await expect(admin.getByRole('link', { name: 'Autumn collection live', exact: true })).toBeVisible();
});
