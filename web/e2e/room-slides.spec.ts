import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { ownServers } from './room';
import { guideLogsIn, joinAsGuest } from './logins';

/*
 * The slides' content in the room: a guide and a guest in their own browser contexts.
 * The guide starts the appointment, so this spec runs on its own fresh servers.
 */

const { newPage } = ownServers();

/** The number of the slide a page shows, once its content is there. */
async function shownSlide(page: Page): Promise<string | null> {
  return page.getByTestId('slide').getAttribute('data-slide-index');
}

test('the attendee sees each slide the guide shows, with its content, products, likes and instant listings', async ({ browser }) => {
  test.setTimeout(240_000);
  const ada = await newPage(browser);
  await joinAsGuest(ada, 'Ada Guest');
  const guide = await newPage(browser);
  await guideLogsIn(guide);
  await guide.getByRole('button', { name: 'Start presentation' }).click();
  await guide.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();
  await expect(ada).toHaveURL(/\/presentation\/demo$/);

  const guideSlide = guide.getByTestId('slide');
  const adaSlide = ada.getByTestId('slide');
  await expect(adaSlide.getByTestId('slide-content')).toBeVisible();
  await expect(adaSlide).toHaveAttribute('data-slide-index', '1');

  await test.step('the guide navigates by thumbnails with the slide notes beside them', async () => {
    const navigator = guide.locator('.slide-navigator');
    await expect(navigator.getByRole('button', { name: /^Slide \d+: / }).first()).toBeVisible();
    // The notes of the slide on screen, as rich text; the attendee never gets them.
    const notes = navigator.getByRole('region', { name: 'Slide notes' });
    await expect(notes).toContainText('Welcome everyone and introduce yourself.');
    await expect(notes.locator('strong')).toHaveText('SALESROOM10');
    await navigator.getByRole('button', { name: /^Slide 2: / }).click();
    await expect(adaSlide).toHaveAttribute('data-slide-index', '2');
    await expect(notes).toContainText('Highlight one or two bestsellers');
    await expect(notes).not.toContainText('Welcome everyone');
    await expect(ada.getByRole('region', { name: 'Slide notes' })).toHaveCount(0);
    await expect(ada.getByText(/Highlight one or two bestsellers|Welcome everyone and introduce yourself/)).toHaveCount(0);
    // Thumbnails carry the slide's first picture once the slides are loaded.
    await expect(navigator.locator('.slide-thumb__picture img').first()).toBeVisible();
  });

  await test.step('ten slide changes, each with its content on both screens', async () => {
    const next = guide.getByRole('button', { name: 'Next slide' });
    const previous = guide.getByRole('button', { name: 'Previous slide' });
    let forward = true;
    for (let change = 0; change < 10; change += 1) {
      if (forward && (await next.isDisabled())) forward = false;
      if (!forward && (await previous.isDisabled())) forward = true;
      const before = Number(await shownSlide(guide));
      await (forward ? next : previous).click();
      const expected = String(forward ? before + 1 : before - 1);
      await expect(guideSlide).toHaveAttribute('data-slide-index', expected);
      await expect(adaSlide).toHaveAttribute('data-slide-index', expected);
      await expect(adaSlide).toHaveAttribute('aria-busy', 'false');
      await expect(adaSlide.getByTestId('slide-content')).toBeVisible();
      await expect(adaSlide.getByTestId('slide-position')).toHaveText(`Slide ${expected}`);
      // Something of the slide's own content shows: a text, an image or a product.
      await expect(adaSlide.locator('.cms-element').first()).toBeVisible();
    }
  });

  await test.step("a product slide's product opens the product modal and can be liked", async () => {
    // The first slide with products.
    const thumbs = guide.locator('.slide-navigator').getByRole('button', { name: /^Slide \d+: / });
    const count = await thumbs.count();
    let found = false;
    for (let index = 0; index < count && !found; index += 1) {
      await thumbs.nth(index).click();
      await expect(adaSlide).toHaveAttribute('data-slide-index', String(index + 1));
      await expect(adaSlide).toHaveAttribute('aria-busy', 'false');
      found = (await adaSlide.getByTestId('room-product').count()) > 0;
    }
    expect(found).toBe(true);
    await expectAccessible(ada);
    const product = adaSlide.getByTestId('room-product').first();
    const name = (await product.getAttribute('aria-label')) ?? (await product.locator('.buy-box__name').textContent()) ?? '';
    await product.getByRole('button', { name: /^Details/ }).first().click();
    const modal = ada.getByRole('dialog');
    await expect(modal).toBeVisible();
    await modal.getByRole('button', { name: /^Like / }).click();
    await expect(modal.getByRole('button', { name: /^Remove the like from / })).toHaveAttribute('aria-pressed', 'true');
    await ada.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await expect(ada.getByTestId('count-likes')).toHaveText('1');
    expect(name).not.toBe('');
  });

  await test.step('the guide puts a product of the slide in focus from the slide itself', async () => {
    const highlight = guide.getByTestId('slide').getByRole('button', { name: /^Highlight / }).first();
    const name = ((await highlight.getAttribute('aria-label')) ?? '').replace(/^Highlight /, '');
    expect(name).not.toBe('');
    await expect(highlight).toHaveAttribute('aria-pressed', 'false');
    await highlight.click();
    await expect(highlight).toHaveAttribute('aria-pressed', 'true');
    await expect(highlight).toHaveText('In focus');
    await expect(ada.getByTestId('highlighted-product')).toContainText(name);
  });

  await test.step('an instant listing the guide creates appears for the attendee', async () => {
    await guide.getByRole('button', { name: 'New instant listing' }).click();
    const editor = guide.getByRole('region', { name: 'Instant listing' });
    await editor.getByLabel('Name of the listing').fill('Ada’s picks');
    const results = editor.getByRole('list', { name: 'Search results' });
    await expect(results.getByRole('listitem').nth(1)).toBeVisible();
    const names: string[] = [];
    for (const index of [0, 1]) {
      const row = results.getByRole('listitem').nth(index);
      names.push((await row.getAttribute('aria-label')) ?? '');
      await row.getByRole('button', { name: /^Add / }).click();
    }
    await expect(editor.getByRole('heading', { name: 'Products in the listing (2)' })).toBeVisible();
    await expectAccessible(guide);
    // Reordered before publishing: the second product first.
    await editor.getByRole('button', { name: `Move ${names[1]} up` }).click();
    await editor.getByRole('button', { name: 'Publish' }).click();
    await guide.getByRole('dialog', { name: 'Publish the listing?' }).getByRole('button', { name: 'Publish now' }).click();
    await expect(editor).toBeHidden();
    // The guide is taken to the new slide, and the attendee follows with its products in order.
    await expect(guideSlide.getByRole('heading', { level: 2 }).first()).toHaveText('Ada’s picks');
    await expect(adaSlide.getByRole('heading', { level: 2 }).first()).toHaveText('Ada’s picks');
    await expect(adaSlide.getByTestId('room-product')).toHaveCount(2);
    await expect(adaSlide.getByTestId('room-product').first()).toHaveAttribute('aria-label', names[1]!);

    // Edited: a product removed; discarding first puts it back, publishing takes it out for everyone.
    await guide.getByRole('button', { name: 'Edit listing' }).click();
    await expect(editor.getByRole('heading', { name: 'Products in the listing (2)' })).toBeVisible();
    await editor.getByRole('button', { name: `Remove ${names[0]}` }).click();
    await editor.getByRole('button', { name: 'Discard changes' }).click();
    await guide.getByRole('dialog', { name: 'Discard the changes?' }).getByRole('button', { name: 'Discard' }).click();
    await expect(editor.getByRole('heading', { name: 'Products in the listing (2)' })).toBeVisible();
    await editor.getByRole('button', { name: `Remove ${names[0]}` }).click();
    await editor.getByRole('button', { name: 'Publish' }).click();
    await guide.getByRole('dialog', { name: 'Publish the listing?' }).getByRole('button', { name: 'Publish now' }).click();
    await expect(editor).toBeHidden();
    await expect(adaSlide.getByTestId('room-product')).toHaveCount(1);
    await expect(adaSlide.getByTestId('room-product')).toHaveAttribute('aria-label', names[1]!);
  });

  await test.step("the widgets show the attendee's cart after an add to cart", async () => {
    await guide.getByRole('button', { name: 'Widgets', exact: true }).click();
    const cartWidget = guide.getByRole('article', { name: 'Cart statistics' });
    await expect(cartWidget).toContainText('No products in any cart yet.');
    const product = adaSlide.getByTestId('room-product').first();
    const name = (await product.getAttribute('aria-label')) ?? '';
    await product.getByRole('button', { name: `Details of ${name}` }).click();
    const modal = ada.getByRole('dialog');
    await modal.getByRole('button', { name: 'Add to cart' }).click();
    await expect(ada.getByTestId('count-cart')).toHaveText('1');
    await expect(cartWidget).toContainText(name);
    await expectAccessible(guide);
    await expect(cartWidget.getByTestId('widget-cart-total')).toContainText('All carts:');
    const insights = guide.getByRole('article', { name: 'Attendee insights' });
    await expect(insights).toContainText('Ada Guest');
    await expect(insights).toContainText('1 product · ');
  });

  await test.step('the guide deletes the published listing: it disappears for the attendee, who moves to the slide before', async () => {
    const listingSlide = Number(await shownSlide(ada));
    const navigator = guide.locator('.slide-navigator');
    await expect(navigator.getByRole('button', { name: /Ada’s picks/ })).toHaveCount(1);
    await guide.getByRole('button', { name: 'Delete listing' }).click();
    const dialog = guide.getByRole('dialog', { name: 'Delete the listing “Ada’s picks”?' });
    // Cancelled first: nothing happens.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(adaSlide.getByRole('heading', { level: 2 }).first()).toHaveText('Ada’s picks');
    await guide.getByRole('button', { name: 'Delete listing' }).click();
    await dialog.getByRole('button', { name: 'Delete for everyone' }).click();
    await expect(dialog).toBeHidden();
    await expect(adaSlide).toHaveAttribute('data-slide-index', String(listingSlide - 1));
    await expect(ada.getByText('Ada’s picks')).toHaveCount(0);
    await expect(navigator.getByRole('button', { name: /Ada’s picks/ })).toHaveCount(0);
    await expect(guide.getByRole('button', { name: 'Delete listing' })).toHaveCount(0);
  });
});
