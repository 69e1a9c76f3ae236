import { expect, test, type Browser, type Page } from '@playwright/test';
import { startServers, type Servers } from './global-setup';

/*
 * One guide and two guests run the demo appointment from the waiting room to the end.
 * Starting, locking and ending change the appointment for good, so this spec runs on
 * its own fresh servers and leaves the shared ones alone.
 */

let servers: Servers;

test.use({ actionTimeout: 15_000 });

test.beforeAll(async () => {
  servers = await startServers();
});

test.afterAll(async () => {
  await servers?.teardown();
});

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: servers.origin });
  return context.newPage();
}

async function joinAsGuest(browser: Browser, name: string): Promise<Page> {
  const page = await newPage(browser);
  await page.goto('/presentation/demo/prejoin');
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel(/privacy policy/).check();
  await page.getByRole('button', { name: 'Join' }).click();
  return page;
}

const status = (page: Page) => page.getByRole('status', { name: 'Live connection' });

test('a guide runs the presentation for two guests from the waiting room to the end', async ({ browser }) => {
  test.setTimeout(180_000);

  const ada = await joinAsGuest(browser, 'Ada Attendee');
  const bob = await joinAsGuest(browser, 'Bob Browser');
  for (const attendee of [ada, bob]) {
    await expect(attendee).toHaveURL(/\/presentation\/demo\/waiting$/);
    await expect(attendee.getByRole('heading', { name: 'The presentation will start soon' })).toBeVisible();
    await expect(status(attendee)).toHaveText('Connected');
  }

  const guide = await newPage(browser);
  await guide.goto('/guide/demo/login');
  await guide.getByLabel('Username').fill('admin');
  await guide.getByLabel('Password').fill('shopware');
  await guide.getByRole('button', { name: 'Log in' }).click();
  await expect(guide).toHaveURL(/\/guide\/demo$/);
  await expect(status(guide)).toHaveText('Connected');
  await expect(guide.getByTestId('presentation-phase')).toHaveText('Not started');
  await expect(guide.getByTestId('video-status')).toHaveText('Video is not configured: this presentation runs without video.');
  const participants = guide.getByRole('region', { name: 'Participants' });
  await expect(participants.getByRole('heading')).toHaveText('Participants (2)');
  const adaEntry = participants.getByRole('listitem', { name: 'Ada Attendee' });
  await expect(adaEntry).toContainText('Cart: no access');
  await expect(participants.getByRole('listitem', { name: 'Bob Browser' })).toContainText(/Joined · (Connected|Reconnected)/);

  await test.step('the guide starts and the guests enter by themselves', async () => {
    await guide.getByRole('button', { name: 'Start presentation' }).click();
    const dialog = guide.getByRole('dialog', { name: 'Start the presentation?' });
    await dialog.getByRole('button', { name: 'Start now' }).click();
    await expect(dialog).toBeHidden();
    await expect(guide.getByTestId('presentation-phase')).toHaveText('Live');
    for (const attendee of [ada, bob]) {
      await expect(attendee).toHaveURL(/\/presentation\/demo$/);
      await expect(attendee.getByTestId('slide-position')).toHaveText('Slide 1');
      await expect(attendee.getByTestId('video-status')).toHaveText(
        'Video is not configured: this presentation runs without video.',
      );
    }
  });

  const guideSlide = guide.getByTestId('slide-position');
  const total = Number((await guideSlide.textContent())?.match(/of (\d+)/)?.[1]);
  expect(total).toBeGreaterThanOrEqual(5);

  async function expectSlide(number: number, attendees: Page[] = [ada, bob]) {
    await expect(guideSlide).toHaveText(`Slide ${number} of ${total}`);
    for (const attendee of attendees) await expect(attendee.getByTestId('slide-position')).toHaveText(`Slide ${number}`);
  }

  await test.step('the guests follow ten slide changes', async () => {
    let current = 1;
    let direction = 1;
    for (let change = 1; change <= 9; change += 1) {
      if (current + direction < 1 || current + direction > total) direction = -direction;
      await guide.getByRole('button', { name: direction > 0 ? 'Next slide' : 'Previous slide' }).click();
      current += direction;
      await expectSlide(current);
    }
    // The tenth from the slide list.
    await guide.getByRole('button', { name: /^Slide 3: / }).click();
    await expectSlide(3);
  });

  await test.step('the guide highlights a product', async () => {
    await guide.getByRole('button', { name: 'Highlight product' }).click();
    const dialog = guide.getByRole('dialog', { name: 'Highlight a product' });
    const picker = dialog.getByRole('combobox', { name: 'Product' });
    await expect(picker).toBeVisible();
    const option = (await picker.locator('option').nth(1).textContent()) ?? '';
    const name = option.replace(/ \([^)]*\)$/, '');
    await picker.selectOption({ index: 1 });
    await dialog.getByRole('button', { name: 'Show to everyone' }).click();
    await expect(dialog).toBeHidden();
    for (const page of [guide, ada, bob]) {
      await expect(page.getByTestId('highlighted-product')).toContainText(name);
    }
  });

  await test.step('the guide locks and a third guest is refused', async () => {
    await guide.getByRole('button', { name: 'Lock', exact: true }).click();
    await expect(guide.getByText('Locked: no one can join')).toBeVisible();
    const late = await joinAsGuest(browser, 'Lou Late');
    await expect(late).toHaveURL(/\/presentation\/demo\/denied$/);
    await expect(late.getByRole('heading', { name: 'The presentation is locked' })).toBeVisible();
    await late.context().close();
  });

  await test.step('the guide asks for cart access and one guest grants it', async () => {
    await adaEntry.getByRole('button', { name: 'Ask Ada Attendee for cart access' }).click();
    const request = ada.getByRole('alertdialog', { name: 'Access to your cart' });
    await expect(request).toBeVisible();
    await expect(bob.getByRole('alertdialog')).toHaveCount(0);
    await request.getByRole('button', { name: 'Allow' }).click();
    await expect(request).toBeHidden();
    await expect(adaEntry).toContainText('Cart: granted');
    await expect(ada.getByText('The guide may see and edit your cart.')).toBeVisible();
    await expect(participants.getByRole('listitem', { name: 'Bob Browser' })).toContainText('Cart: no access');
  });

  await test.step("a guest's network drop loses no slide change", async () => {
    await bob.context().setOffline(true);
    await guide.getByRole('button', { name: 'Next slide' }).click();
    await expectSlide(4, [ada]);
    await guide.getByRole('button', { name: 'Next slide' }).click();
    await expectSlide(5, [ada]);
    await bob.context().setOffline(false);
    await expect(bob.getByTestId('slide-position')).toHaveText('Slide 5', { timeout: 30_000 });
    await expect(status(bob)).toHaveText(/^(Connected|Reconnected)$/);
  });

  await test.step('the guide ends and the guests see the end screen', async () => {
    await guide.getByRole('button', { name: 'End presentation' }).click();
    const dialog = guide.getByRole('dialog', { name: 'End the presentation?' });
    await dialog.getByRole('button', { name: 'End for everyone' }).click();
    await expect(guide.getByTestId('presentation-phase')).toHaveText('Ended');
    for (const attendee of [ada, bob]) {
      await expect(attendee.getByRole('heading', { name: 'Thank you for joining' })).toBeVisible();
      await expect(attendee.getByRole('link', { name: 'Go to the cart' })).toBeVisible();
      await expect(attendee.getByRole('link', { name: 'Go to the wishlist' })).toBeVisible();
    }
  });
});
