import { expect, test, type Page } from '@playwright/test';
import { emptyShop, utcInput } from './empty-shop';
import { guideLogsIn, joinAsGuest, submitBackofficeLogin } from './logins';

/*
 * A merchant starting from an empty shop (DEMO=0) builds a presentation with three slides
 * (one reordered by keyboard), makes an appointment (in German), invites an attendee (the
 * mail with its calendar file is in the outbox); a guide opens the room and the attendee
 * sees the first slide, in broadcast mode as the appointment says.
 */

const PASSWORD = 'e2e-admin-password';
const { newPage, origin, mailsTo } = emptyShop(PASSWORD);

/** Two products through the Admin API (the catalogue pages are another spec's). */
async function seedProducts(page: Page): Promise<void> {
  const token = await page.request.post('/api/oauth/token', {
    data: { grant_type: 'password', client_id: 'administration', username: 'admin', password: PASSWORD },
  });
  expect(token.ok()).toBeTruthy();
  const { access_token } = (await token.json()) as { access_token: string };
  for (const [productNumber, name] of [
    ['KITE-1', 'Storm kite'],
    ['KITE-2', 'Breeze kite'],
  ]) {
    const created = await page.request.post('/api/product', {
      headers: { Authorization: `Bearer ${access_token}` },
      data: { productNumber, name, stock: 10, price: [{ gross: 49 }] },
    });
    expect(created.ok(), await created.text()).toBeTruthy();
  }
}

test('a merchant builds a presentation and an appointment, invites, and the room shows the first slide', async ({ browser }) => {
  test.setTimeout(240_000);
  const admin = await newPage(browser);
  await seedProducts(admin);

  await test.step('log in to the backoffice', async () => {
    await submitBackofficeLogin(admin, { password: PASSWORD });
    await admin.getByRole('navigation', { name: 'Backoffice' }).getByRole('link', { name: 'Presentations' }).click();
    await expect(admin.getByRole('heading', { name: 'Presentations', level: 1 })).toBeVisible();
  });

  await test.step('a presentation with three slides, the last moved to the front by keyboard', async () => {
    await admin.getByRole('link', { name: 'New presentation' }).click();
    await admin.getByLabel('Name', { exact: true }).fill('Kite show');
    const kind = admin.getByLabel('Kind of the new slide');
    const slides = admin.getByTestId('admin-slide');

    await kind.selectOption('productListing');
    await admin.getByRole('button', { name: 'Add slide' }).click();
    await slides.nth(0).getByLabel('Title (English)').fill('All kites');
    await slides.nth(0).getByLabel('Add a product').fill('kite');
    await slides.nth(0).getByRole('button', { name: 'Choose Storm kite (KITE-1)' }).click();
    await slides.nth(0).getByLabel('Add a product').fill('kite');
    await slides.nth(0).getByRole('button', { name: 'Choose Breeze kite (KITE-2)' }).click();
    // Notes in rich text: typed, a word made bold, a list, a link.
    const notesEn = slides.nth(0).getByRole('textbox', { name: 'Notes for the guide (English)' });
    const formatting = slides.nth(0).getByRole('toolbar', { name: 'Formatting: Notes for the guide (English)' });
    await notesEn.click();
    await admin.keyboard.type('Welcome ');
    await formatting.getByRole('button', { name: 'Bold' }).click();
    await expect(formatting.getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'true');
    await admin.keyboard.type('everyone');
    await formatting.getByRole('button', { name: 'Bold' }).click();
    await admin.keyboard.press('Enter');
    await formatting.getByRole('button', { name: 'Bulleted list' }).click();
    await admin.keyboard.type('Show the kites');
    // Select "kites" and link it (an address that is no web address is refused first).
    for (let i = 0; i < 'kites'.length; i++) await admin.keyboard.press('Shift+ArrowLeft');
    await formatting.getByRole('button', { name: 'Link' }).click();
    await slides.nth(0).getByLabel('Link address (empty: remove the link)').fill('javascript:alert(1)');
    await slides.nth(0).getByRole('button', { name: 'Apply link' }).click();
    await expect(slides.nth(0).getByLabel('Link address (empty: remove the link)')).toHaveAccessibleDescription(/Please enter a web address/);
    await slides.nth(0).getByLabel('Link address (empty: remove the link)').fill('example.com/kites');
    await slides.nth(0).getByRole('button', { name: 'Apply link' }).click();
    await expect(notesEn.locator('strong')).toHaveText('everyone');
    await expect(notesEn.locator('ul li')).toHaveText('Show the kites');
    await expect(notesEn.getByRole('link', { name: 'kites' })).toHaveAttribute('href', 'https://example.com/kites');
    await slides.nth(0).getByRole('textbox', { name: 'Notes for the guide (German)' }).fill('Alle begrüßen');

    await kind.selectOption('productDetail');
    await admin.getByRole('button', { name: 'Add slide' }).click();
    await slides.nth(1).getByLabel('Title (English)').fill('Storm kite up close');
    await slides.nth(1).getByLabel('Find the product').fill('storm');
    await slides.nth(1).getByRole('button', { name: 'Choose Storm kite (KITE-1)' }).click();

    await kind.selectOption('productDetail');
    await admin.getByRole('button', { name: 'Add slide' }).click();
    await slides.nth(2).getByLabel('Title (English)').fill('Opening: the breeze kite');
    await slides.nth(2).getByLabel('Find the product').fill('breeze');
    await slides.nth(2).getByRole('button', { name: 'Choose Breeze kite (KITE-2)' }).click();

    // Keyboard: Space lifts the handle, arrows move, Space drops.
    const handle = admin.getByRole('button', { name: 'Move Slide 3: Opening: the breeze kite' });
    await handle.focus();
    await admin.keyboard.press('Space');
    await expect(admin.getByRole('status').filter({ hasText: 'Slide 3: Opening: the breeze kite is over position 3.' })).toBeAttached();
    for (const position of [2, 1]) {
      await admin.keyboard.press('ArrowUp');
      await expect(admin.getByRole('status').filter({ hasText: `is over position ${position}.` })).toBeAttached();
    }
    await admin.keyboard.press('Space');
    await expect(slides.nth(0).getByRole('heading')).toHaveText('Slide 1: Opening: the breeze kite');
    await expect(slides.nth(1).getByRole('heading')).toHaveText('Slide 2: All kites');

    await admin.getByRole('button', { name: 'Create' }).click();
    await expect(admin.getByRole('heading', { name: 'Presentation: Kite show', level: 1 })).toBeVisible();
    await expect(slides).toHaveCount(3);
    await expect(slides.nth(0).getByRole('heading')).toHaveText('Slide 1: Opening: the breeze kite');
    await expect(slides.nth(1).getByRole('textbox', { name: 'Notes for the guide (German)' })).toHaveText('Alle begrüßen');
    const savedNotes = slides.nth(1).getByRole('textbox', { name: 'Notes for the guide (English)' });
    await expect(savedNotes.locator('strong')).toHaveText('everyone');
    await expect(savedNotes.getByRole('link', { name: 'kites' })).toHaveAttribute('href', 'https://example.com/kites');
  });

  await test.step('preview the saved slides as an attendee sees them, in English and German', async () => {
    await admin.getByRole('button', { name: 'Show preview' }).click();
    const preview = admin.getByTestId('admin-preview');
    await expect(preview.getByTestId('slide-position')).toHaveText('Slide 1 of 3');
    await expect(preview.getByTestId('slide-content')).toContainText('Breeze kite');
    await preview.getByRole('button', { name: 'Next slide' }).click();
    await expect(preview.getByTestId('slide-content').getByTestId('room-product')).toHaveCount(2);
    await admin.getByLabel('Language of the preview').selectOption('de');
    await expect(preview).toHaveAttribute('lang', 'de');
    await expect(preview.getByTestId('slide-position')).toHaveText('Slide 2 of 3');
    await expect(preview.getByTestId('slide-content').getByTestId('room-product')).toHaveCount(2);
  });

  await test.step('an appointment, made in German', async () => {
    await admin.goto('/de-DE/admin/appointments/new');
    await expect(admin.getByRole('heading', { name: 'Neuer Termin', level: 1 })).toBeVisible();
    await admin.getByLabel('Name (Englisch)').fill('Kites live');
    await admin.getByLabel('Name (Deutsch)').fill('Drachen live');
    await admin.getByLabel('Präsentation').selectOption({ label: 'Kite show' });
    const path = admin.getByLabel('Pfad (Teil des Einladungslinks)');
    // The path's hint is the field's description, right under its input (not a block of its own below).
    await expect(path).toHaveAccessibleDescription('Kleinbuchstaben, Ziffern und Bindestriche.');
    const inputBox = (await path.boundingBox())!;
    const hintBox = (await admin.getByText('Kleinbuchstaben, Ziffern und Bindestriche.', { exact: true }).boundingBox())!;
    expect(hintBox.y - (inputBox.y + inputBox.height)).toBeLessThanOrEqual(8);
    expect(hintBox.x).toBeCloseTo(inputBox.x, 0);
    await path.fill('Kites Live!');
    await admin.getByLabel('Zeitzone').selectOption('UTC');
    await admin.getByLabel('Beginn').fill(utcInput(-30));
    await admin.getByLabel('Ende').fill(utcInput(120));
    await admin.getByLabel('Im Übertragungsmodus starten').check();
    await admin.getByRole('button', { name: 'Anlegen' }).click();
    // The path is checked at its field.
    await expect(path).toHaveAccessibleDescription(
      'Kleinbuchstaben, Ziffern und Bindestriche. Nur Kleinbuchstaben, Ziffern und Bindestriche (höchstens 64).',
    );
    await admin.getByLabel('Pfad (Teil des Einladungslinks)').fill('kites-live');
    await admin.getByRole('button', { name: 'Anlegen' }).click();
    // A German page names the appointment by its German name (#31 item 6).
    await expect(admin.getByRole('heading', { name: 'Termin: Drachen live', level: 1 })).toBeVisible();
    await expect(admin.getByLabel('Einladungslink', { exact: true })).toHaveValue(`${origin()}/invitation/kites-live`);
    await expect(admin.getByLabel('Im Übertragungsmodus starten')).toBeChecked();
  });

  await test.step('invite an attendee: the mail with its calendar file is in the outbox', async () => {
    await admin.getByLabel('E-Mail-Adressen (durch Kommas oder Zeilen getrennt)').fill('ada@example.com, not-an-address');
    await admin.getByRole('button', { name: 'Einladungen senden' }).click();
    await expect(admin.getByRole('alert')).toContainText('not-an-address');
    await admin.getByLabel('E-Mail-Adressen (durch Kommas oder Zeilen getrennt)').fill('ada@example.com');
    await admin.getByRole('button', { name: 'Einladungen senden' }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'Eine Einladung gesendet.' })).toBeVisible();
    await expect(admin.getByRole('cell', { name: 'ada@example.com' })).toBeVisible();
    const mails = await mailsTo('ada@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Content-Type: text/calendar');
    expect(mails[0]).toContain('filename="invitation.ics"');
  });

  const guide = await newPage(browser);
  const attendee = await newPage(browser);
  await test.step('a guide opens the room and the attendee sees the first slide', async () => {
    await joinAsGuest(attendee, 'Ada', { appointment: 'kites-live' });

    await guideLogsIn(guide, { appointment: 'kites-live', password: PASSWORD });
    await guide.getByRole('button', { name: 'Start presentation' }).click();
    await guide.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();

    await expect(attendee).toHaveURL(/\/presentation\/kites-live$/);
    const slide = attendee.getByTestId('slide');
    await expect(slide).toHaveAttribute('data-slide-index', '1');
    await expect(slide.getByTestId('slide-content')).toContainText('Breeze kite');
    // The appointment's broadcast mode default: the room started in it.
    await expect(attendee.getByText('Broadcast mode is on: only the guide is on camera.')).toBeVisible();
    await expect(guide.getByText('Broadcast mode is on: only the guide is on camera.')).toBeVisible();
  });
});
