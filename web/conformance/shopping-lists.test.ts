/**
 * Shopping lists (the Store API's B2B shopping lists, issue #17) driven by the official
 * `@shopware/api-client` as the demo customer; every answer, refusals included, is
 * validated against the official Store API document.
 */
import { describe, expect, test } from 'vitest';
import { failure, shopClient } from './client';

const shop = shopClient();

describe('shopping lists', () => {
  test('create, add, change, read, summary, duplicate, into the cart, remove, delete', async () => {
    await shop.invoke('loginCustomer post /account/login', { body: { username: 'demo@example.com', password: 'salesroom' } });
    const products = await shop.invoke('readProduct post /product', {
      body: { limit: 2, filter: [{ type: 'equals', field: 'childCount', value: 0 }] },
    });
    const [first, second] = products.data.elements.map((product) => product.id);
    expect(first && second).toBeTruthy();

    const created = await shop.invoke('createShoppingList post /shopping-list', {
      body: { name: 'Conformance', lineItems: { a: { id: first!, quantity: 2 } } },
    });
    const id = created.data.id;
    await shop.invoke('addLineItems post /shopping-list/{id}/add', {
      pathParams: { id },
      body: { lineItems: { b: { id: second!, quantity: 1 } } },
    });
    await shop.invoke('updateShoppingList patch /shopping-list/{id}/change-name', { pathParams: { id }, body: { name: 'Renamed' } });
    const list = await shop.invoke('readShoppingList post /shopping-list/{id}', { pathParams: { id }, body: {} });
    expect(list.data.name).toBe('Renamed');
    expect(list.data.lineItems?.map((item) => [item.productId, item.quantity])).toEqual([
      [first, 2],
      [second, 1],
    ]);
    const lineItemId = list.data.lineItems![1]!.id;
    await shop.invoke('updateLineItems post /shopping-list/line-item/{id}/change-quantity', {
      pathParams: { id: lineItemId },
      body: { quantity: 3 },
    });
    const summary = await shop.invoke('summaryShoppingList get /shopping-list/{id}/summary', { pathParams: { id } });
    expect(summary.data.price?.positionPrice).toBeGreaterThan(0);

    const copy = await shop.invoke('duplicateShoppingList post /shopping-list/{id}/duplicate', { pathParams: { id }, body: { name: 'Copy' } });
    const lists = await shop.invoke('readShoppingLists post /shopping-lists', { body: {} });
    expect(lists.data.elements?.map((element) => element.id)).toEqual(expect.arrayContaining([id, copy.data.id]));

    await shop.invoke('addShoppingListsToCart post /shopping-lists/add-to-cart', { body: { ids: [id] } });
    const cart = await shop.invoke('readCart get /checkout/cart');
    expect(cart.data.lineItems?.find((item) => item.referencedId === second)?.quantity).toBe(3);

    await shop.invoke('removeLineItems post /shopping-list/line-item/remove', { body: { productIds: [first!], listId: copy.data.id! } });
    await shop.invoke('removeShoppingLists delete /shopping-list', { body: { ids: [copy.data.id!] } });
    const after = await shop.invoke('readShoppingLists post /shopping-lists', { body: {} });
    expect(after.data.elements?.map((element) => element.id)).not.toContain(copy.data.id);
  });

  test('refusals come in the documented error shape', async () => {
    const invalid = await failure(shop.invoke('createShoppingList post /shopping-list', { body: { name: '' } }));
    expect(invalid.status).toBe(400);
    expect(invalid.details.errors[0]!.code).toBe('B2B__SHOPPING_LIST_INVALID_NAME');
    const quantity = await failure(
      shop.invoke('createShoppingList post /shopping-list', { body: { name: 'x', lineItems: { a: { id: '0'.repeat(32), quantity: 0 } } } }),
    );
    expect(quantity.details.errors[0]!.code).toBe('B2B__SHOPPING_LIST_INVALID_QUANTITY');
    const guest = shopClient();
    const refused = await failure(guest.invoke('readShoppingLists post /shopping-lists', { body: {} }));
    expect(refused.details.errors[0]!.code).toBe('CHECKOUT__CUSTOMER_NOT_LOGGED_IN');
  });
});
