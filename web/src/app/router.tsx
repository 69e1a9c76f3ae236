import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { MessageScreen } from '@/components/message-screen';
import { AttendeeRoom } from '@/features/attendee/components/attendee-room';
import { Prejoin } from '@/features/attendee/components/prejoin';
import { GuideLogin } from '@/features/guide/components/guide-login';
import { GuideRoom } from '@/features/guide/components/guide-room';
import { LOCALES, localePrefix } from '@/lib/i18n';
import { LocaleLayout } from './layouts/locale-layout';

function Message({ title, text }: { title: ParseKeys; text: ParseKeys }) {
  const { t } = useTranslation();
  return <MessageScreen title={t(title)}>{t(text)}</MessageScreen>;
}

/** Spec section 2; the same pages exist under every locale prefix. */
const pages: RouteObject[] = [
  { path: 'guide/:appointmentId/login', element: <GuideLogin /> },
  { path: 'guide/:appointmentId/not-found', element: <Message title="errors.notFoundTitle" text="guide.notFound" /> },
  { path: 'guide/:appointmentId', element: <GuideRoom /> },
  { path: 'presentation/:appointmentId/prejoin', element: <Prejoin /> },
  {
    path: 'presentation/:appointmentId/not-found',
    element: <Message title="errors.notFoundTitle" text="presentation.notFound" />,
  },
  {
    path: 'presentation/:appointmentId/denied',
    element: <Message title="presentation.deniedTitle" text="presentation.denied" />,
  },
  { path: 'presentation/:appointmentId', element: <AttendeeRoom /> },
  { path: '*', element: <Message title="errors.notFoundTitle" text="errors.notFound" /> },
];

export const router = createBrowserRouter(
  LOCALES.map((locale) => ({
    path: localePrefix(locale) || '/',
    element: <LocaleLayout locale={locale} />,
    errorElement: (
      <main className="page">
        <Message title="errors.title" text="errors.generic" />
      </main>
    ),
    children: pages,
  })),
);
