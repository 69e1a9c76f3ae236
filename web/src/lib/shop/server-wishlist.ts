import { shopClient } from '@/lib/shop/session';

/** The server wishlist of a logged-in customer (`/customer/wishlist`). */
export interface WishlistApi {
  /** The product ids on the customer's wishlist. */
  load: () => Promise<string[]>;
  add: (id: string) => Promise<void>;
  remove: (id: string) => Promise<void>;
  merge: (ids: string[]) => Promise<void>;
}

export const serverWishlist: WishlistApi = {
  async load() {
    const { data } = await shopClient().invoke('readCustomerWishlist post /customer/wishlist', {
      body: { includes: { product: ['id'] }, limit: 500 },
    });
    return (data.products?.elements ?? []).map((product) => product.id);
  },
  async add(id) {
    await shopClient().invoke('addProductOnWishlist post /customer/wishlist/add/{productId}', { pathParams: { productId: id } });
  },
  async remove(id) {
    await shopClient().invoke('deleteProductOnWishlist delete /customer/wishlist/delete/{productId}', { pathParams: { productId: id } });
  },
  async merge(ids) {
    await shopClient().invoke('mergeProductOnWishlist post /customer/wishlist/merge', { body: { productIds: ids } });
  },
};
