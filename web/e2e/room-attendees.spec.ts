import { expect, test } from '@playwright/test';
import { expectAccessible } from './axe';
import { guideLogsIn, joinAsGuest } from './logins';
import { checkoutOpensInNewTab, highlightBySearch, ownServers, plainPrice, shopPriceOf, startPresentation } from './room';

/*
 * One guide, a guest and the demo customer, each in their own browser context: likes,
 * the like list, last seen, the product modal, the cart sidebar, cart permission and
 * what the guide sees of each attendee. The guide starts the appointment, so this spec
 * runs on its own fresh servers.
 */

const { newPage } = ownServers();

test('attendees like, view and buy products in the room while the guide follows their likes and carts', async ({ browser }) => {
  test.setTimeout(180_000);

  const ada = await newPage(browser);
  await joinAsGuest(ada, 'Ada Guest');

  const bob = await newPage(browser);
  await bob.goto('/account/login');
  await bob.getByLabel('Email address').fill('demo@example.com');
  await bob.getByLabel('Password').fill('salesroom');
  await bob.getByRole('button', { name: 'Log in' }).click();
  await expect(bob).toHaveURL(/\/account$/);
  await joinAsGuest(bob, 'Bob Customer');

  const guide = await newPage(browser);
  await guideLogsIn(guide);
  const participants = guide.getByRole('region', { name: 'Participants' });
  await expect(participants.getByRole('heading', { level: 2 })).toHaveText('Participants (2)');
  const adaEntry = participants.getByRole('listitem', { name: 'Ada Guest', exact: true });
  const bobEntry = participants.getByRole('listitem', { name: 'Bob Customer', exact: true });

  await startPresentation(guide);
  for (const attendee of [ada, bob]) await expect(attendee).toHaveURL(/\/presentation\/demo$/);

  let product = '';
  await test.step('the guide highlights a product', async () => {
    product = await highlightBySearch(guide, '');
    for (const attendee of [ada, bob]) await expect(attendee.getByTestId('highlighted-product')).toContainText(product);
  });

  await test.step('the guest likes the highlighted product and the guide sees it in her likes', async () => {
    await expect(ada.getByRole('button', { name: 'Likes (0)' })).toBeVisible();
    await ada.getByTestId('highlighted-product').getByRole('button', { name: `Like ${product}` }).click();
    await expect(ada.getByTestId('highlighted-product').getByRole('button', { name: `Remove the like from ${product}` })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(ada.getByRole('button', { name: 'Likes (1)' })).toBeVisible();
    await expect(adaEntry).toContainText('Likes (1)');
    await adaEntry.getByRole('button', { name: 'Likes and cart of Ada Guest' }).click();
    await expect(adaEntry.getByRole('region', { name: 'Likes (1)' })).toContainText(product);
    await expect(bobEntry).toContainText('Likes (0)');
    await expect(guide.getByTestId('liked-by')).toHaveText('Liked by 1 attendee');
  });

  await test.step('the like list opens and closes with the keyboard, and a like can be removed there', async () => {
    const toggle = ada.getByRole('button', { name: 'Likes (1)' });
    await toggle.focus();
    await ada.keyboard.press('Enter');
    const sidebar = ada.getByRole('region', { name: 'Likes', exact: true });
    await expect(sidebar).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(sidebar.getByRole('listitem', { name: product })).toBeVisible();
    await ada.keyboard.press('Escape');
    await expect(sidebar).toBeHidden();
    await expect(toggle).toBeFocused();
    await ada.keyboard.press('Enter');
    await expect(sidebar).toBeVisible();
    await sidebar.getByRole('button', { name: `Remove ${product} from your likes` }).click();
    await expect(sidebar.getByText('No likes yet.')).toBeVisible();
    await expect(ada.getByRole('button', { name: 'Likes (0)' })).toBeVisible();
    await expect(adaEntry.getByRole('region', { name: 'Likes (0)' })).toContainText('No likes yet.');
    // Another sidebar replaces it: one at a time.
    await ada.getByRole('button', { name: /^Last seen/ }).click();
    await expect(sidebar).toBeHidden();
    const lastSeen = ada.getByRole('region', { name: 'Last seen', exact: true });
    await expect(lastSeen.getByRole('listitem', { name: product })).toBeVisible();
    await lastSeen.getByRole('button', { name: 'Close Last seen' }).click();
    await expect(lastSeen).toBeHidden();
  });

  let total = '';
  let shopPrice = '';
  await test.step('the customer adds the product from the product modal and sees it in the cart sidebar', async () => {
    await bob.getByTestId('highlighted-product').getByRole('button', { name: 'Details' }).click();
    const modal = bob.getByRole('dialog', { name: product });
    await expect(modal.getByTestId('room-product')).toBeVisible();
    // One kind of price (item 14): the modal shows the gross price of the shop's product page.
    shopPrice = await shopPriceOf(bob, (await modal.getByTestId('room-product').getAttribute('data-product-id')) ?? '');
    expect(plainPrice(await modal.locator('.room-product__price').textContent())).toBe(shopPrice);
    await expect(modal.getByRole('button', { name: `Like ${product}` })).toBeVisible();
    await modal.getByRole('button', { name: 'Add to cart' }).click();
    await expect(modal.getByText(`${product} is in your cart.`)).toBeVisible();
    await expectAccessible(bob);
    await bob.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await expect(bob.getByRole('button', { name: /^Cart \(/ })).toHaveAccessibleName('Cart (1)');
    await bob.getByRole('button', { name: 'Cart (1)' }).click();
    const cart = bob.getByRole('region', { name: 'Cart', exact: true });
    await expect(cart.getByRole('listitem', { name: product })).toBeVisible();
    // The line is the shop's price; the total (with shipping) is what the guide's panels show below.
    await expect(cart.getByRole('listitem', { name: product }).locator('.room-cart__price')).toHaveText(shopPrice);
    total = plainPrice(await cart.getByTestId('room-cart-total').textContent());
    expect(total).toMatch(/\d/);
    await expect(cart.getByRole('link', { name: 'Go to checkout' })).toBeVisible();
    await expectAccessible(bob);
    await expect(bobEntry).toContainText('Cart: no access');

    // The guide's cart widget shows the same gross prices: the line and the cart's total.
    await guide.getByRole('button', { name: 'Widgets', exact: true }).click();
    const cartWidget = guide.getByRole('article', { name: 'Cart statistics' });
    await expect(cartWidget.getByRole('listitem').filter({ hasText: product })).toContainText(shopPrice);
    await expect(cartWidget.getByTestId('widget-cart-total')).toHaveText(`All carts: ${total}`);
    await guide.getByRole('button', { name: 'Widgets', exact: true }).click();
  });

  await test.step('"Go to checkout" opens the checkout of the same cart in a new tab while the room goes on', async () => {
    await checkoutOpensInNewTab(bob, product);
    await expect(bob).toHaveURL(/\/presentation\/demo$/);
    await expect(bobEntry).toContainText('Connected');
  });

  await test.step('the guide asks for cart access, the customer grants it and the guide sees the cart', async () => {
    await bobEntry.getByRole('button', { name: 'Ask Bob Customer for cart access' }).click();
    const request = bob.getByRole('alertdialog', { name: 'Access to your cart' });
    await request.getByRole('button', { name: 'Allow' }).click();
    await expect(request).toBeHidden();
    await expect(bobEntry).toContainText('Cart: granted');
    await expect(bobEntry).toContainText(`1 item · ${total}`);
    await bobEntry.getByRole('button', { name: 'Likes and cart of Bob Customer' }).click();
    await expect(bobEntry.getByTestId('attendee-cart')).toContainText(`1 × ${product}`);
    // The guide also sees what the customer looked at (read through the admin API).
    await expect(bobEntry.getByRole('region', { name: 'Last seen (1)' })).toContainText(product);
    await expectAccessible(guide);

    // A change in the customer's cart reaches the guide.
    const cart = bob.getByRole('region', { name: 'Cart', exact: true });
    await cart.getByRole('button', { name: `More of ${product}` }).click();
    await expect(bob.getByRole('button', { name: 'Cart (2)' })).toBeVisible();
    await expect(bobEntry.getByTestId('attendee-cart-summary')).toHaveText(/^2 items · /);
    await expect(adaEntry).toContainText('Cart: no access');

    // With the permission the guide edits the cart on the customer's behalf.
    await bobEntry.getByTestId('attendee-cart').getByRole('button', { name: `More of ${product}` }).click();
    await expect(bobEntry.getByTestId('attendee-cart-summary')).toHaveText(/^3 items · /);
    await expect(bob.getByRole('button', { name: 'Cart (3)' })).toBeVisible();
    await expect(cart.getByRole('listitem', { name: product }).getByRole('group')).toContainText('3');
  });

  await test.step("the guide sees the customer's wishlist; a guest's stays in her browser", async () => {
    const before = bobEntry.getByRole('region', { name: /^Wishlist \(\d+\)$/ });
    await expect(before).toBeVisible();
    const count = Number((await before.getAttribute('aria-label'))?.match(/\d+/)?.[0]);
    await bob.getByTestId('highlighted-product').getByRole('button', { name: 'Details' }).click();
    const modal = bob.getByRole('dialog', { name: product });
    await modal.getByRole('button', { name: new RegExp(`wishlist.*${product}|${product}.*wishlist`, 'i') }).click();
    await expect(modal.getByRole('button', { name: new RegExp(`wishlist.*${product}|${product}.*wishlist`, 'i') })).toHaveAttribute('aria-pressed', 'true');
    await bob.keyboard.press('Escape');
    // The details read the wishlist each time they open.
    const details = bobEntry.getByRole('button', { name: 'Likes and cart of Bob Customer' });
    await details.click();
    await details.click();
    await expect(bobEntry.getByRole('region', { name: `Wishlist (${count + 1})` })).toContainText(product);
    await expect(adaEntry.getByRole('region', { name: 'Wishlist' })).toContainText('Ask for cart access to see the wishlist.');
  });

  await test.step('the statistics show statuses, likes per product and the carts', async () => {
    await bob.getByRole('button', { name: `Like ${product}` }).click();
    await expect(bobEntry).toContainText('Likes (1)');
    await participants.getByRole('button', { name: 'Statistics' }).click();
    const statistics = guide.getByRole('dialog', { name: 'Participant statistics' });
    await expect(statistics.getByRole('region', { name: 'Attendees by status' })).toContainText('Joined2');
    await expect(statistics.getByRole('region', { name: 'Likes per product' })).toContainText(`${product}1`);
    const carts = statistics.getByRole('region', { name: 'Carts' });
    await expect(carts).toContainText('Carts with access1');
    await expect(carts).toContainText('Items in these carts3');
    await statistics.getByRole('button', { name: 'Close' }).click();
  });

  await test.step('the guest changes her name in the room and the guide sees the new one', async () => {
    await expect(ada.getByTestId('attendee-name')).toHaveText(/You: Ada Guest/);
    await ada.getByRole('button', { name: 'Change your name (Ada Guest)' }).click();
    const dialog = ada.getByRole('dialog', { name: 'Change your name' });
    const field = dialog.getByLabel('Your name');
    await expect(field).toHaveValue('Ada Guest');
    await field.fill('   ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(field).toHaveAccessibleDescription('Input required');
    await field.fill('Ada Lovelace');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    await expect(ada.getByTestId('attendee-name')).toHaveText(/You: Ada Lovelace/);
    await expect(participants.getByRole('listitem', { name: 'Ada Lovelace' })).toBeVisible();
    await expect(participants.getByRole('listitem', { name: 'Ada Guest' })).toHaveCount(0);
    // The new name stays after a reload of the room.
    await ada.reload();
    await expect(ada.getByTestId('attendee-name')).toHaveText(/You: Ada Lovelace/);
  });

  await test.step('on a phone a sidebar is a full-height sheet; the wishlist sidebar; German texts', async () => {
    await ada.setViewportSize({ width: 390, height: 844 });
    await ada.getByRole('button', { name: /^Last seen/ }).click();
    const lastSeen = ada.getByRole('region', { name: 'Last seen', exact: true });
    // The room follows the resize after it has paused (500 ms).
    await expect.poll(async () => (await lastSeen.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(800);
    // One kind of price on a phone (item 14): the row's price is the shop's product page price.
    const seenRow = lastSeen.getByRole('listitem', { name: product });
    const productId = (await seenRow.getAttribute('data-product-id')) ?? '';
    await expect(seenRow.locator('.room-row__price')).toHaveText(await shopPriceOf(ada, productId));
    await lastSeen.getByRole('button', { name: `Details of ${product}` }).click();
    const modal = ada.getByRole('dialog', { name: product });
    await modal.getByRole('button', { name: new RegExp(`wishlist.*${product}|${product}.*wishlist`, 'i') }).click();
    // Escape closes the modal first, then the sidebar below it.
    await ada.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await expect(lastSeen).toBeVisible();
    await ada.keyboard.press('Escape');
    await expect(lastSeen).toBeHidden();
    await ada.getByRole('button', { name: 'Wishlist (1)' }).click();
    const wishlist = ada.getByRole('region', { name: 'Wishlist', exact: true });
    await expect(wishlist.getByRole('listitem', { name: product })).toBeVisible();
    await wishlist.getByRole('button', { name: 'Close Wishlist' }).click();

    // "Go to checkout" on a phone (item 7): the cart sheet's link opens a new tab, the room goes on.
    await ada.getByRole('button', { name: /^Last seen/ }).click();
    await lastSeen.getByRole('button', { name: `Details of ${product}` }).click();
    await modal.getByRole('button', { name: 'Add to cart' }).click();
    await expect(modal.getByText(`${product} is in your cart.`)).toBeVisible();
    await ada.keyboard.press('Escape');
    await ada.keyboard.press('Escape');
    await ada.getByRole('button', { name: 'Cart (1)' }).click();
    await checkoutOpensInNewTab(ada, product);
    await ada.getByRole('button', { name: 'Close Cart' }).click();

    // Renaming on a phone in English (item 5): the dialog fits the width.
    await ada.getByRole('button', { name: 'Change your name (Ada Lovelace)' }).click();
    const renameEn = ada.getByRole('dialog', { name: 'Change your name' });
    await expect(renameEn.getByLabel('Your name')).toHaveValue('Ada Lovelace');
    const boxEn = await renameEn.boundingBox();
    expect(boxEn!.x).toBeGreaterThanOrEqual(0);
    expect(boxEn!.x + boxEn!.width).toBeLessThanOrEqual(390.5);
    await ada.keyboard.press('Escape');
    await expect(renameEn).toBeHidden();

    await ada.goto('/de-DE/presentation/demo');
    await expect(ada.getByRole('button', { name: 'Merkzettel (1)' })).toBeVisible();
    await ada.getByRole('button', { name: 'Zuletzt gesehen (1)' }).click();
    const german = ada.getByRole('region', { name: 'Zuletzt gesehen', exact: true });
    await expect(german.getByRole('listitem')).toHaveCount(1);
    await expect(german.getByRole('listitem').locator('.room-row__price')).toHaveText(await shopPriceOf(ada, productId, true));
    await expect(german.getByRole('button', { name: /^Details zu / })).toBeVisible();
    await german.getByRole('button', { name: 'Zuletzt gesehen schließen' }).click();
    await expect(german).toBeHidden();

    // Renaming on a phone, in German (item 5): the dialog fits the width and keeps the name.
    await ada.getByRole('button', { name: 'Ihren Namen ändern (Ada Lovelace)' }).click();
    const rename = ada.getByRole('dialog', { name: 'Ihren Namen ändern' });
    await expect(rename.getByLabel('Ihr Name')).toHaveValue('Ada Lovelace');
    const box = await rename.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390.5);
    await ada.keyboard.press('Escape');
    await expect(rename).toBeHidden();
    await expect(ada.getByTestId('attendee-name')).toHaveText(/Sie: Ada Lovelace/);
  });

  await test.step('locking asks first', async () => {
    await guide.getByRole('button', { name: 'Lock', exact: true }).click();
    const dialog = guide.getByRole('dialog', { name: 'Lock the presentation?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(guide.getByText('Locked: no one can join')).toBeHidden();
    await guide.getByRole('button', { name: 'Lock', exact: true }).click();
    await dialog.getByRole('button', { name: 'Lock now' }).click();
    await expect(guide.getByText('Locked: no one can join')).toBeVisible();
  });

  await test.step('the guide removes an attendee after confirming it', async () => {
    const entry = participants.getByRole('listitem', { name: 'Ada Lovelace' });
    await entry.getByRole('button', { name: 'Remove Ada Lovelace' }).click();
    const dialog = guide.getByRole('dialog', { name: 'Remove Ada Lovelace?' });
    await expect(dialog).toContainText('Ada Lovelace leaves the presentation at once');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(entry).toBeVisible();
    await entry.getByRole('button', { name: 'Remove Ada Lovelace' }).click();
    await dialog.getByRole('button', { name: 'Remove now' }).click();
    await expect(dialog).toBeHidden();
    await expect(entry).toHaveCount(0);
    await expect(participants.getByRole('heading', { level: 2 })).toHaveText('Participants (1)');
    // Her socket is closed for good, and her room says why (she is on the German page).
    await expect(ada.getByRole('heading', { name: 'Sie haben die Präsentation verlassen' })).toBeVisible();
    await expect(ada.getByText('Der Guide hat Sie aus dieser Präsentation entfernt.')).toBeVisible();
  });

  // Issue #14, item 10 on a phone: the participants sheet holds each attendee's wishlist and the removal.
  await test.step("on a phone the guide sees the customer's wishlist in the participants sheet and removes him (German, then English)", async () => {
    await guide.setViewportSize({ width: 390, height: 844 });
    // The room follows the resize after it has paused (500 ms).
    await expect(guide.locator('.room')).toHaveAttribute('data-large', 'false');
    const inWidth = async (locator: typeof participants) => {
      const box = await locator.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390.5);
    };
    const openSheet = async (toolbar: string, name: string) => {
      const toggle = guide.getByRole('toolbar', { name: toolbar }).getByRole('button', { name, exact: true });
      if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
      const sheet = guide.getByRole('region', { name });
      await expect(sheet).toBeVisible();
      await inWidth(sheet);
      return sheet;
    };

    // In German: the wishlist as many entries as the English one, the removal cancelled.
    await guide.goto('/de-DE/guide/demo');
    await expect(guide.getByRole('status', { name: 'Live-Verbindung' })).toHaveText('Verbunden');
    const teilnehmende = await openSheet('Präsentationswerkzeuge', 'Teilnehmende');
    const eintrag = teilnehmende.getByRole('listitem', { name: 'Bob Customer', exact: true });
    await eintrag.getByRole('button', { name: 'Likes und Warenkorb von Bob Customer' }).click();
    const merkzettel = eintrag.getByRole('region', { name: /^Merkzettel \(\d+\)$/ });
    await expect(merkzettel).toBeVisible();
    const count = Number((await merkzettel.getAttribute('aria-label'))?.match(/\d+/)?.[0]);
    expect(count).toBeGreaterThanOrEqual(1);
    await expect(merkzettel.getByRole('listitem')).toHaveCount(count);
    await inWidth(merkzettel);
    await eintrag.getByRole('button', { name: 'Bob Customer entfernen' }).click();
    const dialog = guide.getByRole('dialog', { name: 'Bob Customer entfernen?' });
    await expect(dialog).toContainText('Bob Customer verlässt die Präsentation sofort');
    await inWidth(dialog);
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(dialog).toBeHidden();
    await expect(eintrag).toBeVisible();

    // In English: the wishlist holds the product he put there, the removal cancelled, then confirmed.
    await guide.goto('/guide/demo');
    await expect(guide.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
    const sheet = await openSheet('Presentation toolbar', 'Participants');
    const entry = sheet.getByRole('listitem', { name: 'Bob Customer', exact: true });
    await entry.getByRole('button', { name: 'Likes and cart of Bob Customer' }).click();
    const wishlist = entry.getByRole('region', { name: `Wishlist (${count})` });
    await expect(wishlist).toContainText(product);
    await inWidth(wishlist);
    await entry.getByRole('button', { name: 'Remove Bob Customer' }).click();
    const remove = guide.getByRole('dialog', { name: 'Remove Bob Customer?' });
    await inWidth(remove);
    await remove.getByRole('button', { name: 'Cancel' }).click();
    await expect(remove).toBeHidden();
    await expect(entry).toBeVisible();
    await entry.getByRole('button', { name: 'Remove Bob Customer' }).click();
    await remove.getByRole('button', { name: 'Remove now' }).click();
    await expect(entry).toHaveCount(0);
    await expect(sheet.getByRole('heading', { level: 2 })).toHaveText('Participants (0)');
    await expect(bob.getByRole('heading', { name: 'You have left the presentation' })).toBeVisible();
    await expect(bob.getByText('The guide has removed you from this presentation.')).toBeVisible();
  });
});
