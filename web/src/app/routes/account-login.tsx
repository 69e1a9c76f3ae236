import { LoginForm } from '@/features/account/components/login-form';

export const Component = LoginForm;
