import { SuccessPage } from '@/features/checkout/components/success-page';

/** `/checkout/success/{id}/unpaid`. */
export function Component() {
  return <SuccessPage variant="unpaid" />;
}
