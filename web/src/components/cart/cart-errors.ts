import i18next from 'i18next';
import { cartErrorMessage } from '@/lib/api/server-errors';
import { BLOCKING_ERRORS, blockingKeyOf } from '@/lib/shop/checkout-rules';
import { type Cart, cartStore, type CartError } from '@/lib/shop/cart';
import { toast } from '@/lib/ui/toasts';

/**
 * The text of a cart error in the page's language: the catalogue's for the known checkout
 * keys (spec section 8), else the text of its `messageKey` with the item's name or the
 * promotion code filled in, else the shop's message.
 */
export function cartErrorText(error: CartError, cart: Cart | null = cartStore.getState().cart): string {
  const known = blockingKeyOf(error);
  if (known) return i18next.t(BLOCKING_ERRORS[known]);
  const subject = error.messageKey && error.key.startsWith(error.messageKey) ? error.key.slice(error.messageKey.length) : '';
  const item = cart?.lineItems?.find((line) => line.id === subject || line.referencedId === subject);
  return cartErrorMessage(error.messageKey, { subject, name: item?.label ?? i18next.t('cart.someProduct') }, error.message);
}

/** Shows the errors of the last cart response once, as toasts, and consumes them. */
export function showCartErrors(): void {
  for (const error of cartStore.getState().consumeErrors()) {
    const content = cartErrorText(error);
    if (!content) continue;
    toast({ content, variant: error.level >= 20 ? 'danger' : 'warning' });
  }
}
