import i18next from 'i18next';
import { adminDe } from '@/lib/i18n/locales/admin.de';
import { adminEn } from '@/lib/i18n/locales/admin.en';

/** Adds the `admin.` texts of both languages; runs when the /admin chunk loads, so the storefront never carries them. */
export function addAdminTexts(): void {
  if (i18next.hasResourceBundle('en', 'translation') && i18next.exists('admin.title', { lng: 'en' })) return;
  i18next.addResourceBundle('en', 'translation', { admin: adminEn }, true, true);
  i18next.addResourceBundle('de', 'translation', { admin: adminDe }, true, true);
}
