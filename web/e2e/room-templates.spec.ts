import { expect, test } from '@playwright/test';
import { guideLogsIn } from './logins';
import { ownServers, startWithGuests } from './room';

/*
 * The guide's interaction templates: prepared in the cockpit (kept by the shop: a reload
 * still has them), run in one click with the room's live actions (a highlight, an instant
 * listing, a chat announcement) seen by an attendee, changed, refused when incomplete, and
 * deleted after a confirmation; in German on a desktop one is made and run; on a phone the
 * panel fits the width, a template runs from there (German) and is changed and run (English). The guide starts the appointment, so
 * this spec runs on its own servers.
 */

const { newPage } = ownServers();

test('the guide prepares interaction templates and runs them in one click', async ({ browser }) => {
  test.setTimeout(180_000);
  const {
    guide,
    guests: [ada],
  } = await startWithGuests(browser, newPage, 'Ada Guest');

  await guide.getByRole('button', { name: 'Templates', exact: true }).click();
  const panel = guide.getByRole('region', { name: 'Interaction templates' });
  await expect(panel).toContainText('No templates yet.');

  // An incomplete template is refused with the field named; nothing is kept.
  await panel.getByRole('button', { name: 'New template' }).click();
  let form = panel.getByRole('form', { name: 'New template' });
  await form.getByLabel('Name').fill('Spotlight');
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(form.getByText('A product highlight or product page shows exactly one product; an instant listing 1 to 24.')).toBeVisible();

  // A highlight of one product.
  const found = form.getByRole('list', { name: 'Products of the catalogue' });
  await expect(found.getByRole('listitem').first()).toBeVisible();
  const first = (await found.getByRole('listitem').nth(0).getAttribute('aria-label')) ?? '';
  const second = (await found.getByRole('listitem').nth(1).getAttribute('aria-label')) ?? '';
  await found.getByRole('button', { name: `Choose ${first}` }).click();
  await expect(form.getByRole('list', { name: 'Chosen products' }).getByRole('listitem')).toHaveCount(1);
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(panel.getByRole('listitem', { name: 'Spotlight' })).toContainText(first);

  // An instant listing of two products.
  await panel.getByRole('button', { name: 'New template' }).click();
  form = panel.getByRole('form', { name: 'New template' });
  await form.getByLabel('Name').fill('Duo');
  await form.getByLabel('What it does').selectOption('instant-listing');
  await found.getByRole('button', { name: `Choose ${first}` }).click();
  await found.getByRole('button', { name: `Choose ${second}` }).click();
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(panel.getByRole('listitem', { name: 'Duo' })).toContainText(`${first}, ${second}`);

  // An announcement.
  await panel.getByRole('button', { name: 'New template' }).click();
  form = panel.getByRole('form', { name: 'New template' });
  await form.getByLabel('Name').fill('Code');
  await form.getByLabel('What it does').selectOption('message');
  await form.getByLabel('Announcement (sent to the chat)').fill('Ten percent off today with KITE10');
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(panel.getByRole('listitem', { name: 'Code' })).toBeVisible();

  // Kept by the shop, in order.
  await guide.reload();
  await expect(guide.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  await guide.getByRole('button', { name: 'Templates', exact: true }).click();
  await expect(panel.getByTestId('template')).toHaveCount(3);
  await expect(panel.getByTestId('template').first()).toHaveAttribute('aria-label', 'Spotlight');

  // Run: each sends the room's live action, which the attendee sees.
  await panel.getByRole('button', { name: 'Run Spotlight' }).click();
  await expect(ada.getByTestId('highlighted-product')).toContainText(first);
  await panel.getByRole('button', { name: 'Run Code' }).click();
  await expect(ada.getByTestId('chat-message').filter({ hasText: 'Ten percent off today with KITE10' })).toBeVisible();
  await panel.getByRole('button', { name: 'Run Duo' }).click();
  await expect(ada.getByTestId('slide').getByRole('heading', { level: 2 }).first()).toHaveText('Duo');
  await expect(ada.getByTestId('slide').getByTestId('room-product')).toHaveCount(2);

  // Changed: the highlight shows the other product now.
  await panel.getByRole('button', { name: 'Edit Spotlight' }).click();
  form = panel.getByRole('form', { name: 'Change template' });
  await form.getByLabel('Name').fill('Spotlight 2');
  await form.getByRole('list', { name: 'Products of the catalogue' }).getByRole('button', { name: `Choose ${second}` }).click();
  await form.getByRole('button', { name: 'Save template' }).click();
  await expect(panel.getByRole('listitem', { name: 'Spotlight 2' })).toContainText(second);

  // Deleted after a confirmation.
  await panel.getByRole('button', { name: 'Delete Code' }).click();
  await guide.getByRole('dialog', { name: 'Delete the template “Code”?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(panel.getByTestId('template')).toHaveCount(2);

  // In German on a desktop (issue #14, item 9): an announcement made and run there.
  await guide.goto('/de-DE/guide/demo');
  await expect(guide.getByRole('status', { name: 'Live-Verbindung' })).toHaveText('Verbunden');
  await guide.getByRole('button', { name: 'Vorlagen', exact: true }).click();
  const vorlagen = guide.getByRole('region', { name: 'Interaktionsvorlagen' });
  await vorlagen.getByRole('button', { name: 'Neue Vorlage' }).click();
  const neu = vorlagen.getByRole('form', { name: 'Neue Vorlage' });
  await neu.getByLabel('Bezeichnung').fill('Ansage');
  await neu.getByLabel('Was sie tut').selectOption('message');
  await neu.getByLabel('Ansage (im Chat gesendet)').fill('Heute zehn Prozent mit KITE10');
  await neu.getByRole('button', { name: 'Vorlage speichern' }).click();
  await expect(vorlagen.getByRole('listitem', { name: 'Ansage' })).toBeVisible();
  await vorlagen.getByRole('button', { name: 'Ansage ausführen' }).click();
  await expect(ada.getByTestId('chat-message').filter({ hasText: 'Heute zehn Prozent mit KITE10' })).toBeVisible();

  // In German on a phone the panel fits the width.
  const phone = await newPage(browser);
  await phone.setViewportSize({ width: 390, height: 844 });
  await guideLogsIn(phone, { german: true });
  await phone.getByRole('button', { name: 'Vorlagen', exact: true }).click();
  const germanPanel = phone.getByRole('region', { name: 'Interaktionsvorlagen' });
  await expect(germanPanel.getByRole('button', { name: 'Spotlight 2 ausführen' })).toBeVisible();
  await expect(germanPanel.getByText('Produkt hervorheben')).toBeVisible();
  const box = await germanPanel.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390.5);
  // Run from the phone: the attendee sees the product in focus.
  await germanPanel.getByRole('button', { name: 'Spotlight 2 ausführen' }).click();
  await expect(ada.getByTestId('highlighted-product')).toContainText(second);

  // And in English on a phone (issue #14, item 9): changed and run from there.
  await phone.goto('/guide/demo');
  await expect(phone.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  await phone.getByRole('button', { name: 'Templates', exact: true }).click();
  const englishPanel = phone.getByRole('region', { name: 'Interaction templates' });
  await expect(englishPanel.getByRole('button', { name: 'Run Spotlight 2' })).toBeVisible();
  const englishBox = await englishPanel.boundingBox();
  expect(englishBox!.x).toBeGreaterThanOrEqual(0);
  expect(englishBox!.x + englishBox!.width).toBeLessThanOrEqual(390.5);
  await englishPanel.getByRole('button', { name: 'Edit Spotlight 2' }).click();
  const phoneForm = englishPanel.getByRole('form', { name: 'Change template' });
  await phoneForm.getByRole('list', { name: 'Products of the catalogue' }).getByRole('button', { name: `Choose ${first}` }).click();
  await phoneForm.getByRole('button', { name: 'Save template' }).click();
  await expect(englishPanel.getByRole('listitem', { name: 'Spotlight 2' })).toContainText(first);
  await englishPanel.getByRole('button', { name: 'Run Spotlight 2' }).click();
  await expect(ada.getByTestId('highlighted-product')).toContainText(first);
});
