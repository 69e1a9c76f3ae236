import type { adminEn } from './locales/admin.en';
import type { reportEn } from './locales/report.en';
import type { en } from './locales/en';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    // `admin` is added by the /admin chunk when it loads (features/admin/admin-texts.ts).
    resources: { translation: typeof en & { admin: typeof adminEn; report: typeof reportEn } };
  }
}
