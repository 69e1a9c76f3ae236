import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ownServers } from './room';
import { registerCustomer, unique } from './shop';
import { guideLogsIn, joinAsGuest } from './logins';

/*
 * Issue #29, item 5: cart permission does not hand the guide the customer's account. A
 * logged-in customer joins with cart access granted; the guide's cockpit reads the token
 * it gets for that attendee (`…/attendee/{id}/sw-context-token`, what the app uses for the
 * attendee's wishlist) and with it the guide works on the cart, sees the wishlist, and
 * cannot read the customer's profile, addresses or orders, nor add an address. The
 * customer's own session reads them all. Runs on its own fresh servers (the guide's
 * cockpit is used).
 */

const { newPage } = ownServers();

// Registrations and first page loads are slow in a debug build on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

/** Status of a Store API call with `token`. */
async function storeCall(request: APIRequestContext, accessKey: string, token: string, method: string, path: string, data?: unknown) {
  const response = await request.fetch(path, {
    method,
    headers: { 'sw-access-key': accessKey, 'sw-context-token': token, 'content-type': 'application/json' },
    data: data ?? (method === 'GET' ? undefined : {}),
  });
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  return { status: response.status(), body };
}

async function contextTokenOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((entry) => entry.name === 'sw-context-token');
  if (!cookie) throw new Error('the customer has no shop session');
  return decodeURIComponent(cookie.value);
}

test("the guide with cart permission works on the customer's cart but cannot read their profile, addresses or orders", async ({ browser }) => {
  test.setTimeout(180_000);
  const email = unique('greta');
  const customer = await newPage(browser);
  await registerCustomer(customer, { firstName: 'Greta', lastName: 'Customer', email, street: 'Main Street 1', zipcode: '10115', city: 'Berlin' });
  await joinAsGuest(customer, null, { grantCart: true });

  const guide = await newPage(browser);
  await guideLogsIn(guide);
  const participants = guide.getByRole('region', { name: 'Participants' });
  const entry = participants.getByRole('listitem', { name: 'Greta Customer', exact: true });
  await expect(entry).toContainText('Cart: granted');

  // The cockpit asks for the attendee's token when the details open (it reads the wishlist with it).
  const tokenAnswer = guide.waitForResponse((response) => response.url().includes('/sw-context-token'));
  await entry.getByRole('button', { name: 'Likes and cart of Greta Customer' }).click();
  const answer = await tokenAnswer;
  expect(answer.status()).toBe(200);
  const token = ((await answer.json()) as Record<string, string | undefined>)['attendee-sw-context-token'] ?? '';
  expect(token).toBeTruthy();
  // The guide sees the customer's (server) wishlist, as the spec has it.
  await expect(entry.getByRole('region', { name: 'Wishlist (0)' })).toBeVisible();

  const accessKey = ((await (await guide.request.get('/runtime-config.json')).json()) as { shopAccessToken: string }).shopAccessToken;
  const own = await contextTokenOf(customer);
  expect(token).not.toBe(own);

  await test.step('the customer reads their own profile, addresses and orders', async () => {
    const profile = await storeCall(customer.request, accessKey, own, 'GET', '/store-api/account/customer');
    expect(profile.status).toBe(200);
    expect(profile.body?.email).toBe(email);
    expect((await storeCall(customer.request, accessKey, own, 'POST', '/store-api/account/list-address')).status).toBe(200);
    expect((await storeCall(customer.request, accessKey, own, 'POST', '/store-api/order')).status).toBe(200);
  });

  await test.step("with the guide's token: the cart, yes", async () => {
    const products = await guide.request.post('/store-api/product', {
      headers: { 'sw-access-key': accessKey },
      data: { limit: 1, filter: [{ type: 'equals', field: 'childCount', value: 0 }] },
    });
    const productId = ((await products.json()) as { elements: { id: string }[] }).elements[0]?.id ?? '';
    const added = await storeCall(guide.request, accessKey, token, 'POST', '/store-api/checkout/cart/line-item', {
      items: [{ type: 'product', referencedId: productId, quantity: 1 }],
    });
    expect(added.status).toBe(200);
    const ownCart = await storeCall(customer.request, accessKey, own, 'GET', '/store-api/checkout/cart');
    const lines = (ownCart.body?.lineItems ?? []) as { referencedId: string }[];
    expect(lines.map((line) => line.referencedId)).toContain(productId);
    await expect(entry.getByTestId('attendee-cart-summary')).toHaveText(/^1 item · /);
  });

  await test.step("with the guide's token: the profile, addresses and orders, no", async () => {
    for (const [method, path] of [
      ['GET', '/store-api/account/customer'],
      ['POST', '/store-api/account/customer'],
      ['POST', '/store-api/account/list-address'],
      ['POST', '/store-api/order'],
      ['GET', '/store-api/context'],
    ] as const) {
      const refused = await storeCall(guide.request, accessKey, token, method, path);
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(JSON.stringify(refused.body)).not.toContain(email);
    }
    const address = await storeCall(guide.request, accessKey, token, 'POST', '/store-api/account/address', {
      firstName: 'Eve',
      lastName: 'Guide',
      street: 'Elsewhere 1',
      zipcode: '10115',
      city: 'Berlin',
    });
    expect(address.status).toBe(403);
    const addresses = await storeCall(customer.request, accessKey, own, 'POST', '/store-api/account/list-address');
    expect(JSON.stringify(addresses.body)).not.toContain('Elsewhere 1');
  });
});
