import { LoginForm } from '@/components/account/login-form';

export const Component = LoginForm;
