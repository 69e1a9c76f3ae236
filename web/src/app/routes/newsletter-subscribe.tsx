import { NewsletterConfirm } from '@/features/newsletter/components/newsletter-confirm';

/** `/newsletter-subscribe?em=…&hash=…`. */
export const Component = NewsletterConfirm;
