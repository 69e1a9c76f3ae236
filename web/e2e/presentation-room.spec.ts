import { expect, test, type Browser, type BrowserContext, type Page, type WebSocketRoute } from '@playwright/test';
import { highlightBySearch, ownServers, productDeepInCatalogue } from './room';
import { joinAsGuest, submitGuideLogin } from './logins';

/*
 * One guide and two guests run the demo appointment from the waiting room to the end:
 * on the embedded shop, and on an upstream Shopware (the browsers' proxy forwards to a
 * stand-in with UPSTREAM_URL, issue #17). Starting, locking and ending change the
 * appointment for good, so each run has its own fresh servers and leaves the shared ones
 * alone.
 */

type NewPage = ReturnType<typeof ownServers>['newPage'];

async function newGuest(
  newPage: NewPage,
  browser: Browser,
  name: string,
  prepare?: (context: BrowserContext) => Promise<void>,
): Promise<Page> {
  const page = await newPage(browser, prepare);
  await joinAsGuest(page, name, { waiting: false });
  return page;
}

const status = (page: Page) => page.getByRole('status', { name: 'Live connection' });

for (const upstream of [false, true]) {
  test.describe(upstream ? 'on an upstream Shopware' : 'on the embedded shop', () => {
    const { newPage } = ownServers({ upstream });
    test('a guide runs the presentation for two guests from the waiting room to the end', async ({ browser }) => {
      await runPresentation(newPage, browser);
    });
  });
}

async function runPresentation(newPage: NewPage, browser: Browser) {
  test.setTimeout(180_000);

  const ada = await newGuest(newPage, browser, 'Ada Attendee');
  // Bob's hub sockets go through the test, so that his network can really drop: going
  // offline in Chromium leaves open WebSockets alone.
  const bobSockets: WebSocketRoute[] = [];
  let bobOffline = false;
  const bob = await newGuest(newPage, browser, 'Bob Browser', (context) =>
    context.routeWebSocket(/\/ws/, (socket) => {
      if (bobOffline) {
        void socket.close({ code: 1000, reason: 'offline' });
        return;
      }
      socket.connectToServer();
      bobSockets.push(socket);
    }),
  );
  for (const attendee of [ada, bob]) {
    await expect(attendee).toHaveURL(/\/presentation\/demo\/waiting$/);
    await expect(attendee.getByRole('heading', { name: 'The presentation will start soon' })).toBeVisible();
    await expect(status(attendee)).toHaveText('Connected');
  }

  const guide = await newPage(browser);
  await submitGuideLogin(guide);
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
    // Waiting room and room share one socket: the guide sees no reconnect.
    for (const name of ['Ada Attendee', 'Bob Browser']) {
      await expect(participants.getByRole('listitem', { name })).toContainText('Joined · Connected');
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

  await test.step('the guide finds a product anywhere in the catalogue by its number and highlights it', async () => {
    const deep = await productDeepInCatalogue(guide);
    const name = await highlightBySearch(guide, deep.productNumber);
    expect(name).toBe(deep.name);
    for (const page of [guide, ada, bob]) {
      await expect(page.getByTestId('highlighted-product').first()).toContainText(name);
    }
    await guide.getByRole('button', { name: 'Open the product page for everyone' }).click();
    for (const attendee of [ada, bob]) await expect(attendee.getByTestId('dynamic-page')).toContainText(name);
    await guide.getByRole('button', { name: 'Close the page for everyone' }).click();
    for (const attendee of [ada, bob]) await expect(attendee.getByTestId('dynamic-page')).toBeHidden();
  });

  await test.step('the guide locks and a third guest is refused', async () => {
    await guide.getByRole('button', { name: 'Lock', exact: true }).click();
    await guide.getByRole('dialog', { name: 'Lock the presentation?' }).getByRole('button', { name: 'Lock now' }).click();
    await expect(guide.getByText('Locked: no one can join')).toBeVisible();
    const late = await newGuest(newPage, browser, 'Lou Late');
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

  await test.step('statistics, view controls, broadcast mode and mute all reach everyone', async () => {
    await participants.getByRole('button', { name: 'Statistics' }).click();
    const statistics = guide.getByRole('dialog', { name: 'Participant statistics' });
    await expect(statistics).toContainText(
      'Attendees2Online2Offline0Cart access granted1Cart access requested0Guides1',
    );
    await statistics.getByRole('button', { name: 'Close' }).click();

    await guide.getByRole('radio', { name: 'Conference' }).click();
    await expect(guide.getByRole('radio', { name: 'Conference' })).toBeChecked();
    for (const attendee of [ada, bob]) await expect(attendee.getByText('View: Video grid')).toBeVisible();
    await guide.getByRole('radio', { name: 'Content' }).click();
    for (const attendee of [ada, bob]) await expect(attendee.getByText('View: Presentation')).toBeVisible();

    await guide.getByRole('button', { name: 'Broadcast mode', exact: true }).click();
    await guide.getByRole('dialog', { name: 'Broadcast mode' }).getByRole('button', { name: 'Turn broadcast mode on' }).click();
    await expect(ada.getByText('Broadcast mode is on: only the guide is on camera.')).toBeVisible();
    // The attendee may see the change before the guide's dialog closes (its request answered).
    await expect(guide.getByRole('dialog', { name: 'Broadcast mode' })).toBeHidden();
    await guide.getByRole('button', { name: 'Broadcast mode', exact: true }).click();
    await guide.getByRole('dialog', { name: 'Broadcast mode' }).getByRole('button', { name: 'Turn broadcast mode off' }).click();
    await expect(ada.getByText('Broadcast mode is on: only the guide is on camera.')).toBeHidden();

    await guide.getByRole('button', { name: 'Mute all' }).click();
    await guide.getByRole('dialog', { name: 'Mute everyone?' }).getByRole('button', { name: 'Mute all' }).click();
    await expect(guide.getByText('Everyone is muted')).toBeVisible();
    await guide.getByRole('button', { name: 'Allow microphones' }).click();
    await expect(guide.getByText('Everyone is muted')).toBeHidden();
  });

  await test.step("a guest's network drop loses no slide change", async () => {
    await bob.context().setOffline(true);
    bobOffline = true;
    await Promise.all(bobSockets.splice(0).map((socket) => socket.close({ code: 1000, reason: 'network down' })));
    await expect(status(bob)).toHaveText(/^(Reconnecting…|Connection lost)$/);
    await guide.getByRole('button', { name: 'Next slide' }).click();
    await expectSlide(4, [ada]);
    await guide.getByRole('button', { name: 'Next slide' }).click();
    await expectSlide(5, [ada]);
    await bob.context().setOffline(false);
    bobOffline = false;
    await expect(bob.getByTestId('slide-position')).toHaveText('Slide 5', { timeout: 30_000 });
    await expect(status(bob)).toHaveText('Reconnected');
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
}
