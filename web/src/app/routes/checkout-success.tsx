import { SuccessPage } from '@/features/checkout/components/success-page';

/** `/checkout/success/{id}`: the order confirmation. */
export function Component() {
  return <SuccessPage variant="confirmation" />;
}
