import { SuccessPage } from '@/features/checkout/components/success-page';

/** `/checkout/success/{id}/paid`. */
export function Component() {
  return <SuccessPage variant="paid" />;
}
