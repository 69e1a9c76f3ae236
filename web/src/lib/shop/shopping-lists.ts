import { shopClient } from '@/lib/shop/session';

/** A line of a shopping list: a product and its quantity. */
export interface ShoppingListLine {
  id: string;
  productId: string;
  quantity: number;
  product?: { id: string; productNumber?: string; name?: string; translated?: { name?: string } } | null;
}

/** A customer's shopping list (the Store API's `B2bComponentsShoppingList`). */
export interface ShoppingList {
  id: string;
  name: string;
  lineItems?: ShoppingListLine[];
}

/**
 * The shopping-list routes are B2B Components' and not in the shop client's typed
 * operations: they are called by their operation strings all the same (`name method path`).
 */
type Invoke = (operation: string, params?: { body?: unknown; pathParams?: Record<string, string> }) => Promise<{ data: unknown }>;
const invoke = (operation: string, params?: { body?: unknown; pathParams?: Record<string, string> }) =>
  (shopClient().invoke as unknown as Invoke)(operation, params);

/** The customer's lists with their products, newest last. */
export async function listShoppingLists(): Promise<ShoppingList[]> {
  const { data } = await invoke('searchShoppingLists post /shopping-lists', {
    body: { limit: 50, associations: { lineItems: { associations: { product: {} } } } },
  });
  return ((data as { elements?: ShoppingList[] }).elements ?? []).slice();
}

export async function createShoppingList(name: string): Promise<ShoppingList> {
  const { data } = await invoke('createShoppingList post /shopping-list', { body: { name } });
  return data as ShoppingList;
}

export async function renameShoppingList(id: string, name: string): Promise<void> {
  await invoke('changeShoppingListName patch /shopping-list/{id}/change-name', { pathParams: { id }, body: { name } });
}

export async function addToShoppingList(id: string, productId: string, quantity = 1): Promise<void> {
  await invoke('addShoppingListLineItems post /shopping-list/{id}/add', {
    pathParams: { id },
    body: { lineItems: [{ id: productId, quantity }] },
  });
}

/** Puts every product of the lists into the cart (their quantities added). */
export async function shoppingListsToCart(ids: string[]): Promise<void> {
  await invoke('addShoppingListsToCart post /shopping-lists/add-to-cart', { body: { ids } });
}
