import { ResetPassword } from '@/features/account/components/reset-password';

/** `/account/recover/password?hash=…`. */
export const Component = ResetPassword;
