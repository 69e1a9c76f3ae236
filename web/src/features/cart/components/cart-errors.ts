import { cartStore } from '@/lib/shop/cart';
import { toast } from '@/lib/ui/toasts';

/** Shows the errors of the last cart response once, as toasts, and consumes them. */
export function showCartErrors(): void {
  for (const error of cartStore.getState().consumeErrors()) {
    if (!error.message) continue;
    toast({ content: error.message, variant: error.level >= 20 ? 'danger' : 'warning' });
  }
}
