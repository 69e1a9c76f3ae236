import i18next from 'i18next';
import { redirect, type LoaderFunction, type LoaderFunctionArgs } from 'react-router';
import { loadAttendeeSession } from '@/features/room/attendee/stores/attendee-session';
import { adminSessionStore } from '@/features/admin/api/session';
import { loadAdminSession, saveAdminSession } from '@/features/room/guide/stores/admin-session';
import { loadLocaleTexts, localeFromPath, localePrefix, stripLocale, switchLocalePath } from '@/lib/i18n';
import {
  pageNotFound,
  runMiddleware,
  type Middleware,
  type NavigationTarget,
} from '@/lib/router/middleware';
import { cartStore } from '@/lib/shop/cart';
import { applyShopLanguage, offeredLocales } from '@/lib/shop/session';

/**
 * Runs before every navigation: texts and shop answers in the locale of the target path.
 * The shop's language first: what re-renders on the texts' switch (the menu, the footer)
 * loads again at once, and must get its answer in the new language (issue #31, item 6).
 */
const locale: Middleware = async (to) => {
  const target = localeFromPath(to.path);
  const offered = await applyShopLanguage(target);
  // A language the merchant switched off: the same page in the first one offered. The
  // backoffice keeps its texts in every language (it reads no storefront).
  if (offered === false && !stripLocale(to.path).startsWith('/admin')) {
    const [first] = await offeredLocales();
    if (first && first !== target) return `${switchLocalePath(to.path, first)}${to.fullPath.slice(to.path.length)}`;
  }
  await loadLocaleTexts(target);
  if (i18next.language !== target) await i18next.changeLanguage(target);
};

export const globalMiddleware: Middleware[] = [locale];

const prefixed = (to: NavigationTarget, path: string) => `${localePrefix(localeFromPath(to.path))}${path}`;

/** Route-named middleware (spec section 6); the guards' inner rules are the product's own. */
export const namedMiddleware: Record<string, Middleware> = {
  /** The guide's room needs a guide login; the login page itself is open. */
  'guide-auth-guard': (to) => {
    const id = to.params.appointmentId;
    if (!id || to.path.endsWith('/login')) return;
    if (loadAdminSession()) return;
    const report = to.path.startsWith(prefixed(to, '/guide/report/'));
    // The backoffice's login opens the report too (its appointments link to it): no second login.
    const backoffice = adminSessionStore.getState().session;
    if (report && backoffice) {
      saveAdminSession({ accessToken: backoffice.accessToken, refreshToken: backoffice.refreshToken, expirationTime: backoffice.expiresAt });
      return;
    }
    // The report logs in through the guide's login and comes back.
    if (report) return prefixed(to, `/guide/${id}/login?next=report`);
    return prefixed(to, `/guide/${id}/login`);
  },
  /** The customer's room needs a join; without one the pre-join screen comes first. */
  'presentation-pre-action': (to) => {
    const id = to.params.appointmentId;
    if (!id || to.path.startsWith(prefixed(to, '/invitation/'))) return;
    if (!loadAttendeeSession(id)) return prefixed(to, `/presentation/${id}/prejoin`);
  },
  /** Checkout: an empty cart goes back to the cart page; login or guest registration happens on the page. */
  'user-pre-action': async (to) => {
    try {
      const cart = await cartStore.getState().refresh();
      if (!(cart.lineItems ?? []).some((item) => item.type === 'product')) return prefixed(to, '/checkout/cart');
    } catch {
      // The checkout page shows that the cart could not be loaded.
    }
  },
};

export interface GuardedRoute {
  middleware?: readonly string[];
  /** The route's validation check; false is a 404 'Page Not Found'. */
  validate?: (params: LoaderFunctionArgs['params']) => boolean;
}

let from: NavigationTarget | null = null;

/**
 * The loader every page route gets: validation, then global and named middleware
 * (a returned path redirects), then the page's own loader.
 */
export function guardedLoader(
  route: GuardedRoute,
  inner?: LoaderFunction,
  registry: Record<string, Middleware> = namedMiddleware,
): LoaderFunction {
  return async (args) => {
    const url = new URL(args.request.url);
    const to: NavigationTarget = { path: url.pathname, fullPath: url.pathname + url.search, params: args.params };
    if (route.validate && !route.validate(args.params)) throw pageNotFound(to.path);
    const outcome = await runMiddleware(to, from, globalMiddleware, route.middleware ?? [], registry);
    if (outcome.kind === 'redirect') return redirect(outcome.to);
    from = to;
    return inner ? inner(args) : null;
  };
}
