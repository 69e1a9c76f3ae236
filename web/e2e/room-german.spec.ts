import { expect, test, type Page } from '@playwright/test';
import { checkoutOpensInNewTab, highlightBySearch, ownServers, plainPrice, shopPriceOf } from './room';
import { submitGuideLogin, submitPrejoin } from './logins';

/*
 * The room journey in German (/de-DE): a guest joins and waits, the guide starts, the
 * guest follows slides, likes a product, puts it in the cart, and the guide ends. Every
 * text asserted is German. The guide starts and ends the appointment, so this spec runs
 * on its own fresh servers.
 */

const { newPage } = ownServers();

const status = (page: Page) => page.getByRole('status', { name: 'Live-Verbindung' });

test('ein Gast nimmt auf Deutsch an der Präsentation teil, vom Warteraum bis zum Ende', async ({ browser }) => {
  test.setTimeout(180_000);

  const guest = await newPage(browser);
  await test.step('der Gast tritt bei und wartet', async () => {
    await guest.goto('/de-DE/presentation/demo/prejoin');
    await expect(guest.getByRole('heading', { name: 'An der Präsentation teilnehmen' })).toBeVisible();
    await guest.getByRole('button', { name: 'Teilnehmen' }).click();
    await expect(guest.getByLabel('Ihr Name')).toHaveAccessibleDescription('Eingabe erforderlich');
    await submitPrejoin(guest, 'Greta Gast', { german: true });
    await expect(guest).toHaveURL(/\/de-DE\/presentation\/demo\/waiting$/);
    await expect(guest.getByRole('heading', { name: 'Die Präsentation beginnt gleich' })).toBeVisible();
    // The appointment's German name (names are stored per language).
    await expect(guest.getByText('Herbstkollektion live', { exact: true })).toBeVisible();
    await expect(status(guest)).toHaveText('Verbunden');
  });

  const guide = await newPage(browser);
  await test.step('der Guide meldet sich an und startet', async () => {
    await submitGuideLogin(guide, { german: true });
    await expect(guide).toHaveURL(/\/de-DE\/guide\/demo$/);
    await expect(status(guide)).toHaveText('Verbunden');
    await expect(guide.locator('.cockpit__header').getByRole('heading', { level: 1 })).toHaveText('Herbstkollektion live');
    await expect(guide.getByTestId('presentation-phase')).toHaveText('Nicht gestartet');
    await expect(guide.getByTestId('video-status')).toHaveText('Video ist nicht eingerichtet: Diese Präsentation läuft ohne Video.');
    // The slide notes in the cockpit's language.
    await expect(guide.getByRole('region', { name: 'Notizen zur Folie' })).toContainText('Begrüßen Sie alle und stellen Sie sich vor.');
    // At 1440 px every menu group of the toolbar fits one row, German labels included.
    const toolbar = guide.getByRole('toolbar', { name: 'Präsentationswerkzeuge' });
    await expect(toolbar.getByRole('group')).toHaveCount(7);
    const tops = await toolbar.getByRole('group').evaluateAll((groups) => groups.map((group) => group.getBoundingClientRect().top));
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(4);
    expect(await toolbar.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    await guide.getByRole('button', { name: 'Präsentation starten' }).click();
    await guide.getByRole('dialog', { name: 'Präsentation starten?' }).getByRole('button', { name: 'Jetzt starten' }).click();
    await expect(guide.getByTestId('presentation-phase')).toHaveText('Live');
    await expect(guest).toHaveURL(/\/de-DE\/presentation\/demo$/);
    await expect(guest.getByTestId('slide-position')).toHaveText('Folie 1');
    await expect(guest.locator('.stage__header').getByRole('heading', { level: 1 })).toHaveText('Herbstkollektion live');
  });

  const guideSlide = guide.getByTestId('slide-position');
  const total = Number((await guideSlide.textContent())?.match(/von (\d+)/)?.[1]);
  expect(total).toBeGreaterThanOrEqual(3);

  await test.step('der Gast folgt den Folien', async () => {
    await guide.getByRole('button', { name: 'Nächste Folie' }).click();
    await expect(guideSlide).toHaveText(`Folie 2 von ${total}`);
    await expect(guest.getByTestId('slide-position')).toHaveText('Folie 2');
    await guide.getByRole('button', { name: 'Vorherige Folie' }).click();
    await expect(guest.getByTestId('slide-position')).toHaveText('Folie 1');
  });

  await test.step('im Vortrag ohne Video sagt die Bühne, dass der Guide spricht', async () => {
    const views = guide.getByRole('radiogroup', { name: 'Ansicht' });
    await views.getByRole('radio', { name: 'Vortrag' }).click();
    await expect(guest.getByRole('heading', { name: 'Der Guide spricht zu Ihnen' })).toBeVisible();
    await expect(guest.getByText('Ansicht: Nur der Guide')).toBeVisible();
    await expect(guest.getByTestId('slide')).toHaveCount(0);
    await views.getByRole('radio', { name: 'Inhalt' }).click();
    await expect(guest.getByTestId('slide-position')).toHaveText('Folie 1');
    await expect(guest.getByTestId('speech-view')).toHaveCount(0);
  });

  await test.step('der Gast liked ein Produkt und legt es in den Warenkorb', async () => {
    const focused = await highlightBySearch(guide, '', true);
    const highlighted = guest.getByTestId('highlighted-product');
    await expect(highlighted).toContainText('Produkt im Fokus');
    await expect(highlighted).toContainText(focused);
    const like = highlighted.getByRole('button', { name: / liken$/ });
    const name = ((await like.getAttribute('aria-label')) ?? '').replace(/ liken$/, '');
    expect(name).not.toBe('');
    await expect(guest.getByRole('button', { name: 'Likes (0)' })).toBeVisible();
    await highlighted.getByRole('button', { name: `${name} liken` }).click();
    await expect(highlighted.getByRole('button', { name: `Like von ${name} entfernen` })).toHaveAttribute('aria-pressed', 'true');
    await expect(guest.getByRole('button', { name: 'Likes (1)' })).toBeVisible();
    await expect(guide.getByTestId('liked-by')).toHaveText('Gefällt 1 Person');

    await highlighted.getByRole('button', { name: 'Details' }).click();
    const modal = guest.getByRole('dialog', { name });
    // One kind of price (item 14): the modal, the cart and the guide's widgets show the gross
    // price of the shop's German product page.
    await expect(modal.getByTestId('room-product')).toBeVisible();
    const shopPrice = await shopPriceOf(guest, (await modal.getByTestId('room-product').getAttribute('data-product-id')) ?? '', true);
    expect(plainPrice(await modal.locator('.room-product__price').textContent())).toBe(shopPrice);
    await modal.getByRole('button', { name: 'In den Warenkorb' }).click();
    await expect(guest.getByRole('button', { name: /^Warenkorb \(/ })).toHaveAccessibleName('Warenkorb (1)');
    await guest.keyboard.press('Escape');
    await guest.getByRole('button', { name: 'Warenkorb (1)' }).click();
    const cart = guest.getByRole('region', { name: 'Warenkorb', exact: true });
    await expect(cart).toContainText(name);
    await expect(cart.getByRole('listitem', { name }).locator('.room-cart__price')).toHaveText(shopPrice);
    const total = plainPrice(await cart.getByTestId('room-cart-total').textContent());
    await guide.getByRole('button', { name: 'Widgets', exact: true }).click();
    const cartWidget = guide.getByRole('article', { name: 'Warenkorb-Statistik' });
    await expect(cartWidget.getByRole('listitem').filter({ hasText: name })).toContainText(shopPrice);
    await expect(cartWidget.getByTestId('widget-cart-total')).toHaveText(`Alle Warenkörbe: ${total}`);
    await guide.getByRole('button', { name: 'Widgets', exact: true }).click();

    // "Zur Kasse" opens the checkout in a new tab while the room goes on (item 7), on a
    // desktop and on a phone, where the cart is a full-height sheet.
    await checkoutOpensInNewTab(guest, name, true);
    await guest.setViewportSize({ width: 390, height: 844 });
    await expect.poll(async () => (await cart.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(800);
    await checkoutOpensInNewTab(guest, name, true);
    await guest.setViewportSize({ width: 1440, height: 900 });
  });

  await test.step('der Gast ändert seinen Namen, der Guide sieht den neuen', async () => {
    const teilnehmende = guide.getByRole('region', { name: 'Teilnehmende' });
    await expect(teilnehmende.getByRole('listitem', { name: 'Greta Gast' })).toBeVisible();
    await guest.getByRole('button', { name: 'Ihren Namen ändern (Greta Gast)' }).click();
    const dialog = guest.getByRole('dialog', { name: 'Ihren Namen ändern' });
    await dialog.getByLabel('Ihr Name').fill('');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog.getByLabel('Ihr Name')).toHaveAccessibleDescription('Eingabe erforderlich');
    await dialog.getByLabel('Ihr Name').fill('Greta Gästin');
    await dialog.getByRole('button', { name: 'Speichern' }).click();
    await expect(dialog).toBeHidden();
    await expect(guest.getByTestId('attendee-name')).toHaveText(/Sie: Greta Gästin/);
    await expect(teilnehmende.getByRole('listitem', { name: 'Greta Gästin' })).toBeVisible();
  });

  // Issue #14 items 9 and 10 in German on a desktop.
  await test.step('der Guide merkt ein Produkt aus dem Katalog und zeigt es, sieht den Merkzettel des Gastes und bricht das Entfernen ab', async () => {
    await guide.getByRole('button', { name: 'Katalog', exact: true }).click();
    const katalog = guide.getByRole('region', { name: 'Katalog' });
    await expect(katalog.getByLabel('Kategorie')).toBeVisible();
    const zeile = katalog.getByRole('list', { name: 'Produkte des Katalogs' }).getByRole('listitem').first();
    const produkt = (await zeile.getAttribute('aria-label')) ?? '';
    await zeile.getByRole('button', { name: `${produkt} merken` }).click();
    const gemerkt = katalog.getByRole('region', { name: 'Gemerkte Produkte' });
    await expect(gemerkt.getByRole('listitem', { name: produkt })).toBeVisible();
    await gemerkt.getByRole('button', { name: `${produkt} allen zeigen` }).click();
    await expect(guest.getByTestId('highlighted-product')).toContainText(produkt);

    // Als Sofort-Listing veröffentlicht und wieder gelöscht (item 10): erst abgebrochen, dann für alle.
    const folieVorher = Number(await guest.getByTestId('slide').getAttribute('data-slide-index'));
    await gemerkt.getByRole('button', { name: 'Als Sofort-Listing zeigen' }).click();
    const editor = guide.getByRole('region', { name: 'Sofort-Listing' });
    await expect(editor.getByRole('heading', { name: 'Produkte im Listing (1)' })).toBeVisible();
    await editor.getByRole('button', { name: 'Veröffentlichen' }).click();
    await guide.getByRole('dialog', { name: 'Listing veröffentlichen?' }).getByRole('button', { name: 'Jetzt veröffentlichen' }).click();
    const gastFolie = guest.getByTestId('slide');
    await expect(gastFolie.getByRole('heading', { level: 2 }).first()).toHaveText('Unsere Auswahl');
    const listingFolie = Number(await gastFolie.getAttribute('data-slide-index'));
    expect(listingFolie).toBeGreaterThan(folieVorher);
    await guide.getByRole('button', { name: 'Listing löschen' }).click();
    const löschen = guide.getByRole('dialog', { name: 'Das Listing „Unsere Auswahl“ löschen?' });
    await expect(löschen).toContainText('Das Listing verschwindet für alle aus der Präsentation');
    await löschen.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(löschen).toBeHidden();
    await expect(gastFolie.getByRole('heading', { level: 2 }).first()).toHaveText('Unsere Auswahl');
    await guide.getByRole('button', { name: 'Listing löschen' }).click();
    await löschen.getByRole('button', { name: 'Für alle löschen' }).click();
    await expect(löschen).toBeHidden();
    await expect(gastFolie).toHaveAttribute('data-slide-index', String(listingFolie - 1));
    await expect(guest.getByText('Unsere Auswahl')).toHaveCount(0);
    await expect(guide.locator('.slide-navigator').getByRole('button', { name: /Unsere Auswahl/ })).toHaveCount(0);
    await expect(guide.getByRole('button', { name: 'Listing löschen' })).toHaveCount(0);

    await gemerkt.getByRole('button', { name: `${produkt} aus den gemerkten Produkten entfernen` }).click();
    await expect(gemerkt).toContainText('Noch keine gemerkten Produkte');
    await guide.getByRole('button', { name: 'Katalog', exact: true }).click();

    const eintrag = guide.getByRole('region', { name: 'Teilnehmende' }).getByRole('listitem', { name: 'Greta Gästin' });
    await eintrag.getByRole('button', { name: 'Likes und Warenkorb von Greta Gästin' }).click();
    await expect(eintrag.getByRole('region', { name: 'Merkzettel' })).toContainText('Bitten Sie um Zugriff auf den Warenkorb, um den Merkzettel zu sehen.');
    await eintrag.getByRole('button', { name: 'Greta Gästin entfernen' }).click();
    const dialog = guide.getByRole('dialog', { name: 'Greta Gästin entfernen?' });
    await expect(dialog).toContainText('Greta Gästin verlässt die Präsentation sofort');
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(dialog).toBeHidden();
    await expect(eintrag).toBeVisible();
  });

  await test.step('der Guide beendet, der Gast sieht das Ende', async () => {
    await guide.getByRole('button', { name: 'Präsentation beenden' }).click();
    const dialog = guide.getByRole('dialog', { name: 'Präsentation beenden?' });
    await expect(dialog).toContainText('Die Präsentation endet für alle.');
    await dialog.getByRole('button', { name: 'Für alle beenden' }).click();
    await expect(guide.getByTestId('presentation-phase')).toHaveText('Beendet');
    await expect(guest.getByRole('heading', { name: 'Danke für Ihre Teilnahme' })).toBeVisible();
    await expect(guest.getByRole('link', { name: 'Zum Warenkorb' })).toBeVisible();
    await expect(guest.getByRole('link', { name: 'Zum Merkzettel' })).toBeVisible();
  });
});
