/**
 * A customer's whole journey through the embedded shop, driven by the official
 * `@shopware/api-client`; every answer (errors included) is validated against the
 * official Store API document.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { ACCESS_KEY, failure, shopClient, validated } from './client';

const shop = shopClient();
const email = `journey-${Date.now()}@example.com`;
const password = 'journey-password';

/** Filled in as the journey goes. */
const found: { categoryId?: string; productId?: string; countryId?: string; salutationId?: string; addressId?: string } = {};

afterAll(() => {
  console.info(`validated ${validated.size} answers:\n  ${[...validated].sort().join('\n  ')}`);
});

describe('browsing', () => {
  test('context, languages, countries, salutations, methods', async () => {
    const context = await shop.invoke('readContext get /context');
    expect(context.data.salesChannel.id).toBeTruthy();
    const languages = await shop.invoke('readLanguages post /language', { body: {} });
    expect(languages.data.elements?.map((language) => language.translationCode?.code).sort()).toEqual(['de-DE', 'en-GB']);
    const countries = await shop.invoke('readCountry post /country', { body: { associations: { states: {} } } });
    const germany = countries.data.elements?.find((country) => country.iso === 'DE');
    expect(germany).toBeTruthy();
    found.countryId = germany?.id;
    const salutations = await shop.invoke('readSalutation post /salutation', { body: {} });
    found.salutationId = salutations.data.elements?.find((salutation) => salutation.salutationKey !== 'not_specified')?.id;
    const payments = await shop.invoke('readPaymentMethod post /payment-method', { body: { onlyAvailable: true } });
    expect(payments.data.elements?.length).toBeGreaterThanOrEqual(3);
    const shipping = await shop.invoke('readShippingMethod post /shipping-method', { body: {} });
    expect(shipping.data.elements.length).toBeGreaterThan(0);
  });

  test('navigation, category, listing with filters and sorting', async () => {
    const navigation = await shop.invoke('readNavigation post /navigation/{activeId}/{rootId}', {
      pathParams: { activeId: 'main-navigation', rootId: 'main-navigation' },
      // The official types call buildTree an array; Shopware takes a boolean.
      body: { depth: 2, buildTree: true } as never,
    });
    const category = navigation.data.find((entry) => entry.type === 'page');
    expect(category).toBeTruthy();
    found.categoryId = category!.id;
    await shop.invoke('readCategory post /category/{navigationId}', { pathParams: { navigationId: found.categoryId }, body: {} });

    const listing = await shop.invoke('readProductListing post /product-listing/{categoryId}', {
      pathParams: { categoryId: found.categoryId },
      body: { limit: 10, order: 'price-asc' },
    });
    expect(listing.data.elements.length).toBeGreaterThan(0);
    const prices = listing.data.elements.map((product) => product.calculatedPrice.unitPrice);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    found.productId = listing.data.elements.find((product) => product.childCount === 0 || product.childCount == null)?.id;

    const filtered = await shop.invoke('readProductListing post /product-listing/{categoryId}', {
      pathParams: { categoryId: found.categoryId },
      body: { 'min-price': 1, 'max-price': 1000, order: 'name-asc', limit: 5 },
    });
    expect(filtered.data.total).toBeLessThanOrEqual(listing.data.total ?? Infinity);
  });

  test('a product with variants: its detail and configurator as documented', async () => {
    const products = await shop.invoke('readProduct post /product', {
      body: { filter: [{ type: 'range', field: 'childCount', parameters: { gt: 0 } }], limit: 1 },
    });
    const parent = products.data.elements[0];
    expect(parent?.childCount).toBeGreaterThan(0);
    // Validated against ProductDetailResponse: every option of the configurator has its `group` (null: not loaded).
    const detail = await shop.invoke('readProductDetail post /product/{productId}', { pathParams: { productId: parent!.id }, body: {} });
    const configurator = detail.data.configurator ?? [];
    expect(configurator.length).toBeGreaterThan(0);
    for (const group of configurator) {
      expect(group.options?.length).toBeGreaterThan(0);
      for (const option of group.options ?? []) expect(option).toHaveProperty('group');
    }
  });

  test('search, product detail, reviews', async () => {
    const detail = await shop.invoke('readProductDetail post /product/{productId}', {
      pathParams: { productId: found.productId! },
      body: {},
    });
    const name = detail.data.product.translated.name ?? detail.data.product.name;
    const word = name.split(' ')[0]!;
    const results = await shop.invoke('searchPage post /search', { body: { search: word } });
    expect(results.data.elements.some((product) => product.id === found.productId || product.parentId === detail.data.product.parentId)).toBe(true);
    await shop.invoke('readProductReviews post /product/{productId}/reviews', { pathParams: { productId: found.productId! }, body: {} });
    const crossSellings = await shop.invoke('readProductCrossSellings post /product/{productId}/cross-selling', {
      pathParams: { productId: found.productId! },
    });
    expect(Array.isArray(crossSellings.data)).toBe(true);
    const products = await shop.invoke('readProduct post /product', { body: { ids: [found.productId!], limit: 1 } });
    expect(products.data.elements).toHaveLength(1);
  });
});

describe('account', () => {
  test('wrong credentials are refused in the documented shape', async () => {
    const error = await failure(shop.invoke('loginCustomer post /account/login', { body: { username: 'nobody@example.com', password: 'nope' } }));
    expect(error.status).toBe(401);
    const missing = await failure(shop.invoke('readCustomer post /account/customer', { body: {} }));
    expect(missing.status).toBe(403);
  });

  test('register, log in, addresses', async () => {
    const registered = await shop.invoke('register post /account/register', {
      body: {
        salutationId: found.salutationId!,
        firstName: 'Jo',
        lastName: 'Journey',
        email,
        password,
        storefrontUrl: inject_origin(),
        acceptedDataProtection: true,
        billingAddress: { firstName: 'Jo', lastName: 'Journey', street: 'Musterstraße 1', zipcode: '48624', city: 'Schöppingen', countryId: found.countryId! },
      } as never,
    });
    expect(registered.data.email).toBe(email);
    await shop.invoke('logoutCustomer post /account/logout');
    await shop.invoke('loginCustomer post /account/login', { body: { username: email, password } });
    const customer = await shop.invoke('readCustomer post /account/customer', { body: {} });
    expect(customer.data.email).toBe(email);

    const created = await shop.invoke('createCustomerAddress post /account/address', {
      body: { firstName: 'Jo', lastName: 'Journey', street: 'Zweite Straße 2', zipcode: '10115', city: 'Berlin', countryId: found.countryId! },
    });
    found.addressId = created.data.id;
    await shop.invoke('defaultShippingAddress patch /account/address/default-shipping/{addressId}', { pathParams: { addressId: found.addressId } });
    const addresses = await shop.invoke('listAddress post /account/list-address', { body: {} });
    expect(addresses.data.elements.map((address) => address.id)).toContain(found.addressId);
    const blank = await failure(
      shop.invoke('createCustomerAddress post /account/address', { body: { firstName: '', lastName: 'Journey', street: 'x', city: 'y', countryId: found.countryId! } }),
    );
    expect(blank.status).toBe(400);
    expect(blank.details.errors.map((error) => error.code)).toContain('VIOLATION::IS_BLANK_ERROR');
  });
});

describe('account extras', () => {
  test('profile, password, wishlist, newsletter, contact form', async () => {
    await shop.invoke('changeProfile post /account/change-profile', {
      body: { salutationId: found.salutationId!, firstName: 'Joanna', lastName: 'Journey' },
    });
    const customer = await shop.invoke('readCustomer post /account/customer', { body: {} });
    expect(customer.data.firstName).toBe('Joanna');
    await shop.invoke('changePassword post /account/change-password', {
      body: { password, newPassword: `${password}-2`, newPasswordConfirm: `${password}-2` },
    });
    const wrong = await failure(
      shop.invoke('changePassword post /account/change-password', { body: { password, newPassword: 'x'.repeat(10), newPasswordConfirm: 'x'.repeat(10) } }),
    );
    expect(wrong.status).toBe(400);

    const missing = await failure(shop.invoke('readCustomerWishlist post /customer/wishlist', { body: {} }));
    expect(missing.status).toBe(404);
    await shop.invoke('addProductOnWishlist post /customer/wishlist/add/{productId}', { pathParams: { productId: found.productId! } });
    const wishlist = await shop.invoke('readCustomerWishlist post /customer/wishlist', { body: {} });
    expect(wishlist.data.products.elements.map((product) => product.id)).toEqual([found.productId]);
    await shop.invoke('mergeProductOnWishlist post /customer/wishlist/merge', { body: { productIds: [found.productId!] } });
    await shop.invoke('deleteProductOnWishlist delete /customer/wishlist/delete/{productId}', { pathParams: { productId: found.productId! } });

    const origin = inject_origin();
    await shop.invoke('subscribeToNewsletter post /newsletter/subscribe', {
      body: { email, option: 'subscribe', storefrontUrl: origin },
    });
    const status = await shop.invoke('readNewsletterRecipient post /account/newsletter-recipient', { body: {} });
    expect(status.data.status).toBeTruthy();
    await shop.invoke('unsubscribeToNewsletter post /newsletter/unsubscribe', { body: { email } });

    const contact = await shop.invoke('sendContactMail post /contact-form', {
      body: {
        salutationId: found.salutationId!,
        firstName: 'Jo',
        lastName: 'Journey',
        email,
        subject: 'A question',
        comment: 'Do you ship to Austria as well?',
      },
    });
    expect(contact.status).toBe(200);
  });
});

describe('cart', () => {
  test('add, change quantity, promotion code, context', async () => {
    const added = await shop.invoke('addLineItem post /checkout/cart/line-item', {
      body: { items: [{ id: found.productId!, referencedId: found.productId!, type: 'product', quantity: 1 }] } as never,
    });
    expect(added.data.lineItems?.map((item) => item.referencedId)).toContain(found.productId);
    const updated = await shop.invoke('updateLineItem patch /checkout/cart/line-item', {
      body: { items: [{ id: found.productId!, quantity: 2 }] } as never,
    });
    expect(updated.data.lineItems?.find((item) => item.id === found.productId)?.quantity).toBe(2);
    const promoted = await shop.invoke('addLineItem post /checkout/cart/line-item', {
      body: { items: [{ type: 'promotion', referencedId: 'SALESROOM10' }] } as never,
    });
    const promotion = promoted.data.lineItems?.find((item) => item.type === 'promotion');
    expect(promotion?.price?.totalPrice).toBeLessThan(0);

    const payments = await shop.invoke('readPaymentMethod post /payment-method', { body: { onlyAvailable: true } });
    const paymentMethodId = payments.data.elements!.at(-1)!.id;
    await shop.invoke('updateContext patch /context', { body: { paymentMethodId } });
    const context = await shop.invoke('readContext get /context');
    expect(context.data.paymentMethod?.id).toBe(paymentMethodId);
    const cart = await shop.invoke('readCart get /checkout/cart');
    expect(cart.data.price?.totalPrice).toBeGreaterThan(0);
  });
});

describe('order', () => {
  test('place, list, pay, change payment, invoice, cancel', async () => {
    const methods = await shop.invoke('readPaymentMethod post /payment-method', { body: { onlyAvailable: true } });
    const [first, second] = methods.data.elements!;
    await shop.invoke('updateContext patch /context', { body: { paymentMethodId: first!.id } });
    const placed = await shop.invoke('createOrder post /checkout/order', { body: { tos: true, customerComment: 'Ring twice.' } as never });
    const orderId = placed.data.id;
    expect(placed.data.lineItems?.some((item) => item.type === 'promotion')).toBe(true);
    const cart = await shop.invoke('readCart get /checkout/cart');
    expect(cart.data.lineItems ?? []).toHaveLength(0);

    const listed = await shop.invoke('readOrder post /order', {
      body: { filter: [{ type: 'equals', field: 'id', value: orderId }], associations: { documents: {} } } as never,
    });
    const order = listed.data.orders.elements[0]!;
    expect(order.orderNumber).toBe(placed.data.orderNumber);

    const origin = inject_origin();
    await shop.invoke('handlePaymentMethod post /handle-payment', {
      body: { orderId, finishUrl: `${origin}/checkout/success/${orderId}/paid`, errorUrl: `${origin}/checkout/success/${orderId}/unpaid` },
    });
    await shop.invoke('orderSetPayment post /order/payment', { body: { orderId, paymentMethodId: second!.id } });

    const document = order.documents?.[0];
    expect(document).toBeTruthy();
    const pdf = await fetch(`${origin}/store-api/document/download/${document!.id}/${document!.deepLinkCode}`, {
      headers: { 'sw-access-key': ACCESS_KEY, 'sw-context-token': shop.defaultHeaders['sw-context-token'] ?? '' },
    });
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');

    const cancelled = await shop.invoke('cancelOrder post /order/state/cancel', { body: { orderId } });
    expect(cancelled.data.technicalName).toBe('cancelled');
    const again = await failure(shop.invoke('cancelOrder post /order/state/cancel', { body: { orderId } }));
    expect(again.status).toBeGreaterThanOrEqual(400);
  });
});

function inject_origin(): string {
  return new URL(shop.getBaseConfig().baseURL!).origin;
}
