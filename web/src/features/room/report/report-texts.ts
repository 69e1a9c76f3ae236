import i18next from 'i18next';
import { reportDe } from '@/lib/i18n/locales/report.de';
import { reportEn } from '@/lib/i18n/locales/report.en';

/** Adds the `report.` texts of both languages; runs when the report page's chunk loads, so the storefront never carries them. */
export function addReportTexts(): void {
  if (i18next.exists('report.title', { lng: 'en' })) return;
  i18next.addResourceBundle('en', 'translation', { report: reportEn }, true, true);
  i18next.addResourceBundle('de', 'translation', { report: reportDe }, true, true);
}
