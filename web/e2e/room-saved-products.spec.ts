import { expect, test } from '@playwright/test';
import { guideLogsIn, joinAsGuest } from './logins';
import { createGuideUser, highlightBySearch, ownServers, productDeepInCatalogue, startPresentation } from './room';

/*
 * The guide's saved products (spec: "saved products layer and upsert sidebar"): saved
 * from a product of the current slide, from the product in focus and from the catalogue
 * search; reordered, noted, removed (kept by the shop: a reload has the same order and
 * note); a second guide sees each change live and the first sees hers; one presented to
 * everyone, which the attendee sees. Then in German on a phone:
 * the layer and the slide names in German. The guide starts the appointment, so this spec
 * runs on its own servers.
 */

const { newPage } = ownServers();

test('the guide saves products from the slide, the focus and the catalogue, orders them and presents one', async ({ browser }) => {
  test.setTimeout(180_000);
  const ada = await newPage(browser);
  await joinAsGuest(ada, 'Ada Guest');
  const guide = await newPage(browser);
  await guideLogsIn(guide);
  await startPresentation(guide);
  await expect(ada).toHaveURL(/\/presentation\/demo$/);
  const adaSlide = ada.getByTestId('slide');

  // The first slide with products; one of them saved from the slide itself.
  const thumbs = guide.locator('.slide-navigator').getByRole('button', { name: /^Slide \d+: / });
  const guideSlide = guide.getByTestId('slide');
  let index = 0;
  for (; index < (await thumbs.count()); index += 1) {
    await thumbs.nth(index).click();
    await expect(adaSlide).toHaveAttribute('data-slide-index', String(index + 1));
    await expect(guideSlide).toHaveAttribute('aria-busy', 'false');
    if ((await guideSlide.getByRole('button', { name: /^Save / }).count()) > 0) break;
  }
  // The slide's last product (the deep catalogue product below may be its first).
  const fromSlide = guideSlide.getByRole('button', { name: /^Save / }).last();
  const slideProduct = ((await fromSlide.getAttribute('aria-label')) ?? '').replace(/^Save /, '');
  expect(slideProduct).not.toBe('');
  await fromSlide.click();
  await expect(guideSlide.getByRole('button', { name: `Save ${slideProduct}` }).first()).toHaveText('Saved');
  expect(slideProduct).not.toBe((await productDeepInCatalogue(guide)).name);

  // The product in focus (found deep in the catalogue), saved from its card.
  const deep = await productDeepInCatalogue(guide);
  const focused = await highlightBySearch(guide, deep.productNumber);
  const focusSave = guide.getByTestId('highlighted-product').getByRole('button', { name: `Save ${focused}` });
  await focusSave.click();
  await expect(focusSave).toHaveText('Saved');

  // A third from the catalogue search.
  await guide.getByRole('button', { name: 'Catalogue', exact: true }).click();
  const panel = guide.getByRole('region', { name: 'Catalogue' });
  const saved = panel.getByRole('region', { name: 'Saved products' });
  const rows = saved.getByRole('listitem');
  await expect(rows).toHaveCount(2);
  const results = panel.getByRole('list', { name: 'Products of the catalogue' });
  const candidate = results.getByRole('listitem').filter({ has: guide.getByRole('button', { name: /^Save /, disabled: false }) }).first();
  const third = (await candidate.getAttribute('aria-label')) ?? '';
  await candidate.getByRole('button', { name: `Save ${third}` }).click();
  await expect(rows).toHaveCount(3);
  const order = async () => rows.evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
  expect(await order()).toEqual([slideProduct, focused, third]);
  await expect(saved.getByText('3 saved')).toBeVisible();

  // Reordered: the third to the top; a note on it.
  await saved.getByRole('button', { name: `Move ${third} up` }).click();
  await expect.poll(order).toEqual([slideProduct, third, focused]);
  await saved.getByRole('button', { name: `Move ${third} up` }).click();
  await expect.poll(order).toEqual([third, slideProduct, focused]);
  await expect(saved.getByRole('button', { name: `Move ${third} up` })).toBeDisabled();
  await saved.getByRole('button', { name: `Write a note on ${third}` }).click();
  await saved.getByLabel(`Note on ${third}`, { exact: true }).fill('Mention the autumn discount');
  await saved.getByRole('button', { name: 'Save note' }).click();
  await expect(saved.getByLabel(`Note on ${third}`, { exact: true })).toHaveText('Mention the autumn discount');

  // Removed: the product in focus leaves the list.
  await saved.getByRole('button', { name: `Remove ${focused} from the saved products` }).click();
  await expect.poll(order).toEqual([third, slideProduct]);

  // Kept by the shop: after a reload the same order and note.
  await guide.reload();
  await expect(guide.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  await guide.getByRole('button', { name: 'Catalogue', exact: true }).click();
  await expect.poll(order).toEqual([third, slideProduct]);
  await expect(saved.getByLabel(`Note on ${third}`, { exact: true })).toHaveText('Mention the autumn discount');

  // A second guide of the appointment sees each change live (save, move, note), and the
  // first guide sees hers (remove), without opening the panel again.
  const gina = await newPage(browser);
  await createGuideUser(gina, 'gina', 'gina-guides-well');
  await guideLogsIn(gina, { username: 'gina', password: 'gina-guides-well' });
  await gina.getByRole('button', { name: 'Catalogue', exact: true }).click();
  const ginaSaved = gina.getByRole('region', { name: 'Catalogue' }).getByRole('region', { name: 'Saved products' });
  const ginaOrder = async () => ginaSaved.getByRole('listitem').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
  await expect.poll(ginaOrder).toEqual([third, slideProduct]);
  const againInFocus = guide.getByTestId('highlighted-product').getByRole('button', { name: `Save ${focused}` });
  await expect(againInFocus).toHaveText('Save');
  await againInFocus.click();
  await expect.poll(ginaOrder).toEqual([third, slideProduct, focused]);
  await saved.getByRole('button', { name: `Move ${focused} up` }).click();
  await expect.poll(ginaOrder).toEqual([third, focused, slideProduct]);
  await saved.getByRole('button', { name: `Write a note on ${focused}` }).click();
  await saved.getByLabel(`Note on ${focused}`, { exact: true }).fill('Ask about the sizes');
  await saved.getByRole('button', { name: 'Save note' }).click();
  await expect(ginaSaved.getByLabel(`Note on ${focused}`, { exact: true })).toHaveText('Ask about the sizes');
  await ginaSaved.getByRole('button', { name: `Remove ${focused} from the saved products` }).click();
  await expect.poll(order).toEqual([third, slideProduct]);
  await expect(againInFocus).toHaveText('Save');
  await gina.context().close();

  // Presented: the attendee sees it in focus; the guide's row says so.
  const show = saved.getByRole('button', { name: `Show ${third} to everyone` });
  await show.click();
  await expect(ada.getByTestId('highlighted-product')).toContainText(third);
  await expect(show).toHaveAttribute('aria-pressed', 'true');
  await expect(show).toHaveText('In focus');
});

test('auf dem Telefon: gemerkte Produkte und Foliennamen auf Deutsch', async ({ browser }) => {
  test.setTimeout(120_000);
  const phone = await newPage(browser, undefined, { viewport: { width: 390, height: 844 } });
  await guideLogsIn(phone, { german: true });
  // The appointment's German name in the cockpit's header.
  await expect(phone.locator('.cockpit__header').getByRole('heading', { level: 1 })).toHaveText('Herbstkollektion live');
  // The demo's slide groups and slides in German.
  await phone.getByRole('button', { name: 'Folien', exact: true }).click();
  const navigator = phone.locator('.slide-navigator');
  await expect(navigator.getByRole('button', { name: 'Folie 1: Willkommen zur Herbstkollektion' })).toBeVisible();
  await expect(navigator.getByRole('heading', { name: 'Willkommen', exact: true })).toBeVisible();
  await expect(navigator.getByRole('heading', { name: 'Fragen und Dank' })).toBeVisible();
  await phone.getByRole('button', { name: 'Folien', exact: true }).click();

  await phone.getByRole('button', { name: 'Katalog', exact: true }).click();
  const panel = phone.getByRole('region', { name: 'Katalog' });
  const saved = panel.getByRole('region', { name: 'Gemerkte Produkte' });
  const rows = saved.getByRole('listitem');
  // The first test's two saved products, in its order, with the note.
  await expect(rows).toHaveCount(2);
  const first = (await rows.first().getAttribute('aria-label')) ?? '';
  await expect(saved.getByLabel(`Notiz zu ${first}`, { exact: true })).toHaveText('Mention the autumn discount');
  await expect(saved.getByRole('button', { name: `${first} nach oben` })).toBeDisabled();
  await saved.getByRole('button', { name: `${first} nach unten` }).click();
  await expect(rows.last()).toHaveAttribute('aria-label', first);
  await saved.getByRole('button', { name: `Notiz zu ${first} schreiben` }).click();
  await saved.getByLabel(`Notiz zu ${first}`, { exact: true }).fill('');
  await saved.getByRole('button', { name: 'Notiz speichern' }).click();
  await expect(saved.getByLabel(`Notiz zu ${first}`, { exact: true })).toHaveCount(0);
  // The layer fits the phone's width: no row sticks out.
  for (const box of await rows.evaluateAll((items) => items.map((item) => item.getBoundingClientRect().right))) expect(box).toBeLessThanOrEqual(390.5);
  const box = await panel.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(390.5);

  // A product found in the whole catalogue is highlighted from the phone (item 8).
  await phone.getByRole('button', { name: 'Katalog', exact: true }).click();
  const focused = await highlightBySearch(phone, '', true);
  await expect(phone.getByTestId('highlighted-product')).toContainText(focused);
});
