import { expect, test, type Page, type Request } from '@playwright/test';
import { highlightBySearch, ownServers } from './room';
import { guideLogsIn, joinAsGuest } from './logins';

/*
 * One add-to-cart click in the room is one change of the shop, so it is one hub publish
 * (the proxy's `attendeeCartChanged`) and one reload per view that shows it: one guide
 * fetch of the attendee's cart, one reload of each cart widget, and no fetch by the
 * attendee, who has the new cart from the add itself.
 *
 * Before the room stopped sending its own `loadCart` hint over the socket (issue #12,
 * item 2), the same click counted: 2 hub publishes (`attendeeCartChanged` + `reload`),
 * 2 guide cart fetches, 4 widget reloads (cart statistics and attendee insights twice
 * each) and 1 extra attendee cart fetch (its own hint came back as a reload).
 *
 * The guide starts the appointment, so this spec runs on its own fresh servers.
 */

const { newPage, hubUrl } = ownServers();

/** The hub's count of state events applied (`hub_events_total`). */
async function hubEvents(): Promise<number> {
  const text = await (await fetch(`${hubUrl()}/metrics`)).text();
  const counter = (name: string) => {
    const line = text.split('\n').find((entry) => entry.startsWith(`${name} `));
    if (!line) throw new Error(`no ${name} in the hub's metrics:\n${text}`);
    return Number(line.split(' ')[1]);
  };
  // The hub's own session samples (for the report) are not publishes.
  return counter('hub_events_total') - counter('hub_session_samples_total');
}

/** Records the requests of `page` from now on. */
function recorder(page: Page) {
  const requests: Request[] = [];
  let recording = false;
  page.on('request', (request) => {
    if (recording && request.resourceType() !== 'image') requests.push(request);
  });
  return {
    start() {
      recording = true;
    },
    stop(): { method: string; path: string }[] {
      recording = false;
      return requests.map((request) => ({ method: request.method(), path: new URL(request.url()).pathname }));
    },
  };
}

/** Lets the background work of the last step settle (socket events, reloads, debounced requests). */
const settle = (page: Page) => page.waitForTimeout(1_500);

test('one add to cart in the room is one hub publish and one guide cart fetch', async ({ browser }) => {
  test.setTimeout(120_000);

  const ada = await newPage(browser);
  await joinAsGuest(ada, 'Ada Guest', { grantCart: true });

  const guide = await newPage(browser);
  await guideLogsIn(guide);
  const adaEntry = guide.getByRole('region', { name: 'Participants' }).getByRole('listitem', { name: 'Ada Guest' });
  await expect(adaEntry).toContainText('Cart: granted');

  await guide.getByRole('button', { name: 'Start presentation' }).click();
  await guide.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();
  await expect(ada).toHaveURL(/\/presentation\/demo$/);

  // The guide highlights a product and looks at the widgets.
  const product = await highlightBySearch(guide, '');
  await guide.getByRole('button', { name: 'Widgets', exact: true }).click();
  const cartWidget = guide.getByRole('article', { name: 'Cart statistics' });
  await expect(cartWidget).toContainText('No products in any cart yet.');

  // The attendee opens the product (which records it as seen) before the counting starts.
  await ada.getByTestId('highlighted-product').getByRole('button', { name: 'Details' }).click();
  const modal = ada.getByRole('dialog', { name: product });
  await expect(modal.getByTestId('room-product')).toBeVisible();
  await settle(ada);

  const guideRequests = recorder(guide);
  const adaRequests = recorder(ada);
  const eventsBefore = await hubEvents();
  guideRequests.start();
  adaRequests.start();

  await modal.getByRole('button', { name: 'Add to cart' }).click();
  await expect(modal.getByText(`${product} is in your cart.`)).toBeVisible();
  await expect(ada.getByTestId('count-cart')).toHaveText('1');
  await expect(adaEntry).toContainText('1 item · ');
  await expect(cartWidget).toContainText(product);
  await settle(guide);

  const fromGuide = guideRequests.stop();
  const fromAda = adaRequests.stop();
  const publishes = (await hubEvents()) - eventsBefore;
  const guideCartFetches = fromGuide.filter(({ method, path }) => method === 'GET' && /\/_proxy\/store-api\/[^/]+\/checkout\/cart$/.test(path));
  const widgetReloads = fromGuide.filter(({ path }) => path.includes('/widgets/'));
  const adaExtra = fromAda.filter(({ method, path }) => !(method === 'POST' && path.endsWith('/checkout/cart/line-item')));

  expect(publishes, 'hub publishes').toBe(1);
  expect(guideCartFetches, 'guide cart fetches').toHaveLength(1);
  // One reload of each widget the change makes stale: cart statistics and attendee insights.
  expect(widgetReloads.map(({ path }) => path.split('/').at(-1)).sort(), 'widget reloads').toEqual(['attendee-insights', 'cart-statistics']);
  expect(adaExtra, 'attendee requests besides the add').toEqual([]);
});
