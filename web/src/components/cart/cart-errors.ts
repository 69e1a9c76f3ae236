import i18next from 'i18next';
import { BLOCKING_ERRORS, blockingKeyOf } from '@/lib/shop/checkout-rules';
import { cartStore, type CartError } from '@/lib/shop/cart';
import { toast } from '@/lib/ui/toasts';

/** The text of a cart error: the catalogue's for the known checkout keys (spec section 8), else the shop's. */
export function cartErrorText(error: CartError): string {
  const known = blockingKeyOf(error);
  return known ? i18next.t(BLOCKING_ERRORS[known]) : error.message;
}

/** Shows the errors of the last cart response once, as toasts, and consumes them. */
export function showCartErrors(): void {
  for (const error of cartStore.getState().consumeErrors()) {
    const content = cartErrorText(error);
    if (!content) continue;
    toast({ content, variant: error.level >= 20 ? 'danger' : 'warning' });
  }
}
