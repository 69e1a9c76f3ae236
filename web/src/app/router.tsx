import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, type LoaderFunction, type RouteObject } from 'react-router';
import { LoadingOverlay } from '@/components/loading-overlay';
import { MessageScreen } from '@/components/message-screen';
import { LOCALES, localePrefix } from '@/lib/i18n';
import { withReloadGuard } from '@/lib/router/reload-guard';
import { AuthLayout } from './layouts/auth-layout';
import { DefaultLayout } from './layouts/default-layout';
import { LocaleLayout } from './layouts/locale-layout';
import { PresentationLayout } from './layouts/presentation-layout';
import { guardedLoader, type GuardedRoute } from './middleware';
import { RouteError } from './routes/route-error';

/** What a lazily loaded page module gives: its component and maybe its data loader. */
export interface PageModule {
  Component: ComponentType;
  loader?: LoaderFunction;
}

export interface PageRoute extends GuardedRoute {
  path: string;
  layout: 'default' | 'auth' | 'presentation';
  load: () => Promise<PageModule>;
  /** Reload the page's data only when the path changes, not on query changes. */
  pathOnly?: boolean;
}

function Message({ title, text }: { title: 'errors.notFoundTitle' | 'presentation.deniedTitle'; text: 'guide.notFound' | 'presentation.notFound' | 'presentation.denied' }) {
  const { t } = useTranslation();
  return <MessageScreen title={t(title)}>{t(text)}</MessageScreen>;
}

const narrow = (Component: ComponentType): ComponentType =>
  function Narrow() {
    return (
      <div className="page">
        <Component />
      </div>
    );
  };

const message =
  (title: Parameters<typeof Message>[0]['title'], text: Parameters<typeof Message>[0]['text']) => () =>
    Promise.resolve({ Component: narrow(() => <Message title={title} text={text} />) });

/** An order id: 32 hex digits. */
const isOrderId = (params: { id?: string }) => /^[0-9a-f]{32}$/i.test(params.id ?? '');

/** Every route of spec section 2 (paths without locale prefix), most specific first. */
export const pageRoutes: PageRoute[] = [
  {
    path: 'guide/report/:appointmentId',
    // The guide's page, not the shop's: no shop header and menu.
    layout: 'presentation',
    middleware: ['guide-auth-guard'],
    load: () => import('@/features/room/report/components/session-report').then((m) => ({ Component: m.SessionReport })),
  },
  {
    path: 'guide/:appointmentId/login',
    layout: 'default',
    middleware: ['guide-auth-guard'],
    load: () => import('@/features/room/guide/components/guide-login').then((m) => ({ Component: narrow(m.GuideLogin) })),
  },
  { path: 'guide/:appointmentId/not-found', layout: 'default', load: message('errors.notFoundTitle', 'guide.notFound') },
  {
    path: 'guide/:appointmentId',
    layout: 'presentation',
    middleware: ['guide-auth-guard'],
    load: () => import('@/features/room/guide/components/guide-room').then((m) => ({ Component: m.GuideRoom })),
  },
  {
    path: 'presentation/:appointmentId/prejoin',
    layout: 'default',
    load: () => import('@/features/room/attendee/components/prejoin').then((m) => ({ Component: narrow(m.Prejoin) })),
  },
  {
    path: 'presentation/:appointmentId/login',
    layout: 'auth',
    load: () => import('@/features/room/attendee/components/customer-access').then((m) => ({ Component: m.PresentationLogin })),
  },
  {
    path: 'presentation/:appointmentId/register',
    layout: 'auth',
    load: () => import('@/features/room/attendee/components/customer-access').then((m) => ({ Component: m.PresentationRegister })),
  },
  {
    path: 'presentation/:appointmentId/not-found',
    layout: 'default',
    load: message('errors.notFoundTitle', 'presentation.notFound'),
  },
  {
    path: 'presentation/:appointmentId/denied',
    layout: 'default',
    load: () => import('@/features/room/attendee/components/denied').then((m) => ({ Component: narrow(m.Denied) })),
  },
  {
    path: 'presentation/:appointmentId/waiting',
    layout: 'default',
    middleware: ['presentation-pre-action'],
    load: () =>
      import('@/features/room/attendee/components/waiting-room').then((m) => ({ Component: narrow(m.WaitingRoom) })),
  },
  {
    path: 'invitation/:appointmentId',
    layout: 'default',
    middleware: ['presentation-pre-action'],
    load: () => import('@/features/room/attendee/components/invitation').then((m) => ({ Component: narrow(m.Invitation) })),
  },
  {
    path: 'presentation/:appointmentId',
    layout: 'presentation',
    middleware: ['presentation-pre-action'],
    load: () => import('@/features/room/attendee/components/attendee-room').then((m) => ({ Component: m.AttendeeRoom })),
  },
  {
    path: 'presentations',
    layout: 'default',
    load: () => import('@/features/room/attendee/components/upcoming-presentations').then((m) => ({ Component: m.UpcomingPresentations })),
  },
  { path: 'error', layout: 'default', load: () => import('./routes/error-route') },
  { path: 'search', layout: 'default', pathOnly: true, load: () => import('./routes/search-page') },
  { path: 'checkout/cart', layout: 'default', load: () => import('./routes/cart-page') },
  { path: 'checkout/success/:id/paid', layout: 'default', validate: isOrderId, load: () => import('./routes/checkout-paid') },
  { path: 'checkout/success/:id/unpaid', layout: 'default', validate: isOrderId, load: () => import('./routes/checkout-unpaid') },
  { path: 'checkout/success/:id', layout: 'default', validate: isOrderId, load: () => import('./routes/checkout-success') },
  { path: 'checkout', layout: 'default', middleware: ['user-pre-action'], load: () => import('./routes/checkout-page') },
  { path: 'account/recover/password', layout: 'auth', load: () => import('./routes/account-recover') },
  { path: 'newsletter-subscribe', layout: 'default', load: () => import('./routes/newsletter-subscribe') },
  { path: 'wishlist', layout: 'default', load: () => import('./routes/wishlist-page') },
  { path: 'account/login', layout: 'auth', load: () => import('./routes/account-login') },
  { path: 'account/register', layout: 'auth', load: () => import('./routes/account-register') },
  { path: 'account', layout: 'default', load: () => import('./routes/account-page') },
  { path: '*', layout: 'default', pathOnly: true, load: () => import('./routes/content-page') },
];

function toRouteObject(route: PageRoute): RouteObject {
  const load = withReloadGuard(route.load);
  return {
    path: route.path,
    loader: guardedLoader(route, async (args) => {
      const module = await load();
      return module.loader ? module.loader(args) : null;
    }),
    lazy: async () => ({ Component: (await load()).Component }),
    errorElement: <RouteError />,
    shouldRevalidate: route.pathOnly
      ? ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
          currentUrl.pathname !== nextUrl.pathname || (defaultShouldRevalidate && currentUrl.search === nextUrl.search)
      : undefined,
  };
}

const LAYOUTS = { default: DefaultLayout, auth: AuthLayout, presentation: PresentationLayout } as const;

/**
 * The merchant backoffice (`/admin/*`, `/de-DE/admin/*`): ONE lazy chunk with its own
 * routes inside (features/admin/admin-app.tsx; `admin-route.tsx` adds the room's slide view
 * for its attendee preview), so the storefront's first load does not carry it
 * (e2e/budget.spec.ts).
 */
const loadAdmin = withReloadGuard(() => import('./admin-route').then((m) => ({ Component: m.AdminWithRoomPreview })));

function adminRoute(): RouteObject {
  return { path: 'admin/*', lazy: loadAdmin, errorElement: <RouteError /> };
}

/** The routes of every locale: en-US bare, en-GB and de-DE under their prefix. */
export function appRoutes(): RouteObject[] {
  return LOCALES.map((locale) => ({
    path: localePrefix(locale) || '/',
    element: <LocaleLayout locale={locale} />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <LoadingOverlay />,
    children: [
      adminRoute(),
      ...(Object.keys(LAYOUTS) as PageRoute['layout'][]).map((layout) => {
      const Layout = LAYOUTS[layout];
      return {
        element: <Layout />,
        children: pageRoutes
          .filter((route) => route.layout === layout)
          // The bare locale path ('/', '/de-DE') is the catch-all's too: an index route.
          .flatMap((route) => (route.path === '*' ? [toRouteObject(route), { ...toRouteObject(route), path: undefined, index: true as const }] : [toRouteObject(route)])) as RouteObject[],
      };
      }),
    ],
  }));
}

export function createAppRouter() {
  return createBrowserRouter(appRoutes());
}
