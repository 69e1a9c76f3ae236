import { expect, test, type Locator, type Page } from '@playwright/test';
import { highlightBySearch, ownServers, soldOutProduct } from './room';
import { guideLogsIn, joinAsGuest } from './logins';

/*
 * The room's layout with every badge of the cockpit on (live, locked, everyone muted,
 * broadcast mode) and a product in focus, at 1024×768, 1280×800, 1440×900 and on a phone,
 * for the guide and an attendee, in German (the longest labels) and then in English (the
 * same session, both pages reloaded on the English paths): what must be seen is inside the
 * window, whole, and nothing overlaps. Boxes are measured; no pixels compared. On a phone
 * the guide highlights a product straight from the slide (issue #14, item 8); a sold-out
 * product is marked on the slide itself (item 12); then the guide's participant tools on a
 * phone in both languages (item 10): the participants sheet, the attendee's wishlist entry,
 * the removal cancelled and confirmed.
 * The guide starts and locks the appointment, so this spec runs on its own servers.
 */

const { newPage } = ownServers();

type Box = { x: number; y: number; width: number; height: number };

const SIZES = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

async function boxOf(locator: Locator): Promise<Box> {
  await expect(locator).toBeVisible();
  const box = await locator.boundingBox();
  if (!box) throw new Error(`no box for ${String(locator)}`);
  return box;
}

/** The element is whole inside the window. */
async function expectInWindow(page: Page, locator: Locator, what: string) {
  const box = await boxOf(locator);
  const { width, height } = page.viewportSize()!;
  expect(box.x, `${what}: left edge at ${width}×${height}`).toBeGreaterThanOrEqual(-0.5);
  expect(box.y, `${what}: top edge at ${width}×${height}`).toBeGreaterThanOrEqual(-0.5);
  expect(box.x + box.width, `${what}: right edge at ${width}×${height}`).toBeLessThanOrEqual(width + 0.5);
  expect(box.y + box.height, `${what}: bottom edge at ${width}×${height}`).toBeLessThanOrEqual(height + 0.5);
}

const overlap = (a: Box, b: Box) =>
  Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 1 && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 1;

/** No two of the elements overlap. */
async function expectApart(page: Page, locators: Locator[], what: string) {
  const boxes: Box[] = [];
  for (const locator of locators) boxes.push(await boxOf(locator));
  const { width, height } = page.viewportSize()!;
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      expect(overlap(boxes[i]!, boxes[j]!), `${what}: ${String(locators[i])} and ${String(locators[j])} overlap at ${width}×${height}`).toBe(false);
    }
  }
}

/** The slide is not cut off: inside the window sideways, its content as wide as the slide. */
async function expectWholeSlide(page: Page) {
  const slide = page.getByTestId('slide');
  const box = await boxOf(slide);
  const { width } = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `the slide's right edge at ${width} px`).toBeLessThanOrEqual(width);
  expect(await slide.evaluate((element) => element.scrollWidth - element.clientWidth), `the slide's content overflows at ${width} px`).toBeLessThanOrEqual(1);
}

async function resize(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  // The room follows a resize once it has paused (500 ms).
  await expect(page.locator('.room')).toHaveAttribute('data-large', String(size.width >= 1024));
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** The labels the checks look for, per language of the page. */
const TEXTS = {
  de: {
    language: 'Deutsch',
    name: 'Herbstkollektion live',
    toolbar: 'Präsentationswerkzeuge',
    slides: 'Folien',
    participants: 'Teilnehmende',
    end: 'Präsentation beenden',
    connection: 'Live-Verbindung',
    view: 'Ansicht',
    viewMode: /^Ansicht: /,
    leave: 'Verlassen',
    highlight: /hervorheben$/,
    guide: 'Guide',
    guest: 'Gast',
    at: 'bei',
  },
  en: {
    language: 'English',
    name: 'Autumn collection live',
    toolbar: 'Presentation toolbar',
    slides: 'Slides',
    participants: 'Participants',
    end: 'End presentation',
    connection: 'Live connection',
    view: 'View',
    viewMode: /^View: /,
    leave: 'Leave',
    highlight: /^Highlight /,
    guide: 'the guide',
    guest: 'the guest',
    at: 'at',
  },
} as const;

type Texts = (typeof TEXTS)[keyof typeof TEXTS];

/** Every size of SIZES: the cockpit and the room whole and apart, in the language of `t`. */
async function checkEverySize(guide: Page, guest: Page, t: Texts) {
  for (const size of SIZES) {
    const phone = size.width < 640;
    await test.step(`${t.guide} ${t.at} ${size.width}×${size.height} (${t.language})`, async () => {
      await resize(guide, size);
      // On a phone the slides and participants are sheets over the stage: a guide there starts with them closed.
      if (phone) {
        for (const panel of [t.slides, t.participants]) {
          const toggle = guide.getByRole('toolbar', { name: t.toolbar }).getByRole('button', { name: panel, exact: true });
          if ((await toggle.getAttribute('aria-pressed')) === 'true') await toggle.click();
        }
      }
      const header = guide.locator('.cockpit__header');
      const title = header.getByRole('heading', { level: 1 });
      // The appointment's name in the page's language (item 17).
      await expect(title).toHaveText(t.name);
      const end = guide.getByRole('button', { name: t.end });
      const connection = guide.getByRole('status', { name: t.connection });
      const badges = header.locator('.badge, .phase');
      await expect(badges).toHaveCount(3);
      for (const [what, locator] of [['title', title], ['end', end], ['connection', connection]] as const) {
        await expectInWindow(guide, locator, what);
      }
      await expectApart(guide, [title, end, connection, header.getByRole('radiogroup', { name: t.view }), ...(await badges.all())], 'header');
      const tools = await guide.getByRole('toolbar', { name: t.toolbar }).getByRole('button').all();
      expect(tools.length).toBeGreaterThanOrEqual(10);
      // The whole toolbar is in view from 1024 px on; on a phone it scrolls sideways.
      if (!phone) for (const tool of tools) await expectInWindow(guide, tool, `tool ${await tool.textContent()}`);
      await expectApart(guide, tools, 'toolbar');
      await expectWholeSlide(guide);
      if (size.width === 1440) await expect(guide.getByTestId('highlighted-product')).toBeInViewport({ ratio: 1 });
      // For people to look at (test-results), not compared.
      await guide.screenshot({ path: test.info().outputPath(`guide-${t.language}-${size.width}.png`) });
    });

    await test.step(`${t.guest} ${t.at} ${size.width}×${size.height} (${t.language})`, async () => {
      await resize(guest, size);
      const title = guest.locator('.stage__header').getByRole('heading', { level: 1 });
      await expect(title).toHaveText(t.name);
      const connection = guest.getByRole('status', { name: t.connection });
      const name = guest.getByTestId('attendee-name');
      for (const [what, locator] of [['title', title], ['connection', connection], ['name', name]] as const) {
        await expectInWindow(guest, locator, what);
      }
      await expectApart(guest, [title, connection, name, guest.getByText(t.viewMode)], 'header');
      const tools = await guest.getByRole('toolbar', { name: t.toolbar }).getByRole('button').all();
      const leave = guest.getByRole('toolbar', { name: t.toolbar }).getByRole('link', { name: t.leave });
      for (const tool of [...tools, leave]) await expectInWindow(guest, tool, `tool ${await tool.textContent()}`);
      await expectApart(guest, [...tools, leave], 'toolbar');
      await expectWholeSlide(guest);
      if (size.width === 1440) await expect(guest.getByTestId('highlighted-product')).toBeInViewport({ ratio: 1 });
      await guest.screenshot({ path: test.info().outputPath(`guest-${t.language}-${size.width}.png`) });
    });
  }
}

/**
 * On a slide of product cards, each card's highlight button is whole inside its card at
 * every desktop size; on a phone the guide highlights the card number `card` straight from
 * the slide and the guest sees it in focus (issue #14, item 8).
 */
async function checkHighlightButtons(guide: Page, guest: Page, t: Texts, card: number) {
  for (const size of SIZES.filter(({ width }) => width >= 1024)) {
    await resize(guide, size);
    const cards = guide.getByTestId('slide').locator('.room-card');
    await expect(cards.first()).toBeVisible();
    for (const card of await cards.all()) {
      const button = card.getByRole('button', { name: t.highlight });
      const [cardBox, buttonBox] = [await boxOf(card), await boxOf(button)];
      const what = `highlight in ${await card.locator('.room-card__name').textContent()} at ${size.width} px (${t.language})`;
      expect(buttonBox.x, what).toBeGreaterThanOrEqual(cardBox.x - 0.5);
      expect(buttonBox.x + buttonBox.width, what).toBeLessThanOrEqual(cardBox.x + cardBox.width + 0.5);
      expect(buttonBox.y + buttonBox.height, what).toBeLessThanOrEqual(cardBox.y + cardBox.height + 0.5);
    }
  }
  await resize(guide, SIZES[3]!);
  const highlight = guide.getByTestId('slide').locator('.room-card').nth(card).getByRole('button', { name: t.highlight });
  const label = (await highlight.getAttribute('aria-label')) ?? '';
  const name = t.language === 'Deutsch' ? label.replace(/ hervorheben$/, '') : label.replace(/^Highlight /, '');
  expect(name).not.toBe('');
  await expect(highlight).toHaveAttribute('aria-pressed', 'false');
  await highlight.click();
  await expect(highlight).toHaveAttribute('aria-pressed', 'true');
  await expect(guest.getByTestId('highlighted-product')).toContainText(name);
}

test('Cockpit und Raum bei 1024, 1280, 1440 px und auf dem Telefon, mit allen Abzeichen, auf Deutsch (lange Texte) und auf Englisch; die Teilnehmer-Werkzeuge auf dem Telefon', async ({ browser }) => {
  test.setTimeout(180_000);

  const guest = await newPage(browser);
  await joinAsGuest(guest, 'Maximiliane Mustermann-Schmidt', { german: true });

  const guide = await newPage(browser);
  await guideLogsIn(guide, { german: true });

  await test.step('alle Abzeichen an: live, gesperrt, alle stumm, Übertragungsmodus, ein Produkt im Fokus', async () => {
    await guide.getByRole('button', { name: 'Präsentation starten' }).click();
    await guide.getByRole('dialog', { name: 'Präsentation starten?' }).getByRole('button', { name: 'Jetzt starten' }).click();
    await expect(guide.getByTestId('presentation-phase')).toHaveText('Live');
    await guide.getByRole('button', { name: 'Sperren', exact: true }).click();
    await guide.getByRole('dialog', { name: 'Präsentation sperren?' }).getByRole('button', { name: 'Jetzt sperren' }).click();
    await guide.getByRole('button', { name: 'Alle stumm', exact: true }).click();
    await guide.getByRole('dialog', { name: 'Alle stummschalten?' }).getByRole('button', { name: 'Alle stummschalten' }).click();
    await guide.getByRole('button', { name: 'Übertragungsmodus', exact: true }).click();
    await guide.getByRole('dialog', { name: 'Übertragungsmodus' }).getByRole('button', { name: 'Übertragungsmodus einschalten' }).click();
    await guide.keyboard.press('Escape');
    await expect(guide.getByText('Gesperrt', { exact: false }).first()).toBeVisible();
    await expect(guide.getByText('Alle sind stummgeschaltet')).toBeVisible();
    await highlightBySearch(guide, '', true);
    await expect(guest).toHaveURL(/\/de-DE\/presentation\/demo$/);
    await expect(guest.getByTestId('highlighted-product')).toContainText('Produkt im Fokus');
  });

  await checkEverySize(guide, guest, TEXTS.de);

  await test.step('auf der Bestseller-Folie ist jeder „Hervorheben“-Knopf ganz in seiner Produktkarte; auf dem Telefon hebt der Guide von der Folie hervor', async () => {
    await guide.getByRole('button', { name: /Nächste Folie/ }).click();
    await expect(guide.getByTestId('slide-position')).toContainText('2');
    await checkHighlightButtons(guide, guest, TEXTS.de, 1);
  });

  await test.step('the same session in English: both pages reloaded on the English paths', async () => {
    await guide.goto('/guide/demo');
    await expect(guide.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
    await expect(guide.getByTestId('presentation-phase')).toHaveText('Live');
    // A locked room still takes back an attendee who joined before.
    await guest.goto('/presentation/demo');
    await expect(guest.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
    await expect(guest.getByTestId('highlighted-product')).toContainText('Product in focus');
    await expect(guide.getByText('Locked: no one can join')).toBeVisible();
    await expect(guide.getByText('Everyone is muted')).toBeVisible();
  });

  await checkEverySize(guide, guest, TEXTS.en);

  await test.step('on the bestseller slide every "Highlight" button is whole inside its product card; on a phone the guide highlights from the slide', async () => {
    await checkHighlightButtons(guide, guest, TEXTS.en, 2);
  });

  // Issue #14, item 12: a product that can no longer be bought is marked on the slide itself.
  await test.step('a sold-out product is marked on the slide itself, in English and German, on a desktop and a phone', async () => {
    const soldOut = await soldOutProduct(guide);
    await resize(guide, SIZES[2]!);
    await guide.getByRole('button', { name: 'New instant listing' }).click();
    const editor = guide.getByRole('region', { name: 'Instant listing' });
    await editor.getByLabel('Name of the listing').fill('Last pieces');
    await editor.getByRole('searchbox', { name: 'Search products' }).fill(soldOut.productNumber);
    await editor.getByRole('list', { name: 'Search results' }).getByRole('button', { name: `Add ${soldOut.name}` }).click();
    await expect(editor.getByRole('heading', { name: 'Products in the listing (1)' })).toBeVisible();
    await editor.getByRole('button', { name: 'Publish' }).click();
    await guide.getByRole('dialog', { name: 'Publish the listing?' }).getByRole('button', { name: 'Publish now' }).click();
    const card = guest.getByTestId('slide').getByTestId('room-product');
    for (const [path, mark] of [
      ['/presentation/demo', 'Sold out'],
      ['/de-DE/presentation/demo', 'Ausverkauft'],
    ] as const) {
      if (!guest.url().endsWith(path)) await guest.goto(path);
      for (const size of [SIZES[3]!, SIZES[2]!]) {
        await resize(guest, size);
        await expect(card).toHaveCount(1);
        await expect(card).toHaveAttribute('data-sold-out', 'true');
        await expect(card.getByTestId('sold-out')).toHaveText(mark);
        await expectInWindow(guest, card.getByTestId('sold-out'), `${mark} at ${size.width} px`);
      }
    }
    // The guide's slide marks it too.
    await expect(guide.getByTestId('slide').getByTestId('sold-out')).toHaveText('Sold out');
  });

  // Issue #14, item 10 on a phone: the participants sheet, the attendee's wishlist and the removal.
  const openParticipants = async (t: Texts) => {
    await resize(guide, SIZES[3]!);
    const toggle = guide.getByRole('toolbar', { name: t.toolbar }).getByRole('button', { name: t.participants, exact: true });
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
    const sheet = guide.getByRole('region', { name: t.participants });
    await expectInWindow(guide, sheet, 'participants sheet');
    return sheet;
  };

  await test.step("on a phone the guide opens the participants sheet, sees the guest's wishlist entry and cancels a removal", async () => {
    const sheet = await openParticipants(TEXTS.en);
    const entry = sheet.getByRole('listitem', { name: 'Maximiliane Mustermann-Schmidt' });
    await entry.getByRole('button', { name: 'Likes and cart of Maximiliane Mustermann-Schmidt' }).click();
    await expect(entry.getByRole('region', { name: 'Wishlist' })).toContainText('Ask for cart access to see the wishlist.');
    await expectInWindow(guide, entry.getByRole('region', { name: 'Wishlist' }), 'wishlist entry');
    await entry.getByRole('button', { name: 'Remove Maximiliane Mustermann-Schmidt' }).click();
    const dialog = guide.getByRole('dialog', { name: 'Remove Maximiliane Mustermann-Schmidt?' });
    await expectInWindow(guide, dialog, 'removal dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(entry).toBeVisible();
    // The guest (on the German page since the sold-out check) is still in the room.
    await expect(guest.getByRole('status', { name: 'Live-Verbindung' })).toHaveText('Verbunden');
  });

  await test.step('auf dem Telefon: Teilnehmende als Blatt, Merkzettel des Gastes, Entfernen abgebrochen und bestätigt', async () => {
    await guide.goto('/de-DE/guide/demo');
    await expect(guide.getByRole('status', { name: 'Live-Verbindung' })).toHaveText('Verbunden');
    const sheet = await openParticipants(TEXTS.de);
    const eintrag = sheet.getByRole('listitem', { name: 'Maximiliane Mustermann-Schmidt' });
    await eintrag.getByRole('button', { name: 'Likes und Warenkorb von Maximiliane Mustermann-Schmidt' }).click();
    await expect(eintrag.getByRole('region', { name: 'Merkzettel' })).toContainText('Bitten Sie um Zugriff auf den Warenkorb, um den Merkzettel zu sehen.');
    await eintrag.getByRole('button', { name: 'Maximiliane Mustermann-Schmidt entfernen' }).click();
    const dialog = guide.getByRole('dialog', { name: 'Maximiliane Mustermann-Schmidt entfernen?' });
    await expectInWindow(guide, dialog, 'Dialog „entfernen“');
    await expect(dialog).toContainText('Maximiliane Mustermann-Schmidt verlässt die Präsentation sofort');
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(eintrag).toBeVisible();
    await eintrag.getByRole('button', { name: 'Maximiliane Mustermann-Schmidt entfernen' }).click();
    await dialog.getByRole('button', { name: 'Jetzt entfernen' }).click();
    await expect(dialog).toBeHidden();
    await expect(eintrag).toHaveCount(0);
    await expect(sheet.getByRole('heading', { level: 2 })).toHaveText('Teilnehmende (0)');
    // The guest's room says why, in German.
    await expect(guest.getByRole('heading', { name: 'Sie haben die Präsentation verlassen' })).toBeVisible();
    await expect(guest.getByText('Der Guide hat Sie aus dieser Präsentation entfernt.')).toBeVisible();
  });
});
