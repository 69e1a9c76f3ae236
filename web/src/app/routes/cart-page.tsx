import { CartPage } from '@/features/cart/components/cart-page';

/** `/checkout/cart`: the cart page. */
export const Component = CartPage;
