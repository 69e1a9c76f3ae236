import { CheckoutPage } from '@/features/checkout/components/checkout-page';

/** `/checkout`. */
export const Component = CheckoutPage;
