import { useLocalePath } from '@/lib/i18n';

/** Paths of the backoffice under the current locale prefix: `adminPath('products')` → `/de-DE/admin/products`. */
export function useAdminPath(): (path?: string) => string {
  const localePath = useLocalePath();
  return (path = '') => localePath(`/admin${path ? `/${path.replace(/^\//, '')}` : ''}`);
}
