import { RegisterForm } from '@/components/account/register-form';

export const Component = RegisterForm;
