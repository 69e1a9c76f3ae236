import { RegisterForm } from '@/features/account/components/register-form';

export const Component = RegisterForm;
