import type { Schemas } from '@shopware/api-client/store-api-types';
import type { RuntimeConfig } from '@/config/runtime';
import { createStoreClient } from '@/lib/api/shop';
import { getCookie, setCookie } from '@/lib/cookies';
import { LOCALES, type Locale } from '@/lib/i18n';

/** Context token and language id cookies live a year (spec section 9). */
const COOKIE_MAX_AGE = 365 * 24 * 60 * 60;
export const CONTEXT_TOKEN_COOKIE = 'sw-context-token';
export const LANGUAGE_ID_COOKIE = 'sw-language-id';

export type ShopClient = ReturnType<typeof createStoreClient>;

interface Session {
  client: ShopClient;
  languages: Promise<Schemas['Language'][]> | null;
  context: Promise<Schemas['SalesChannelContext']> | null;
}

let session: Session | null = null;

const authFailureListeners = new Set<() => void>();

/**
 * A 401 or 403 means the session's customer may have changed: the user is loaded
 * again, except for the customer-account call itself and join calls (spec section 7).
 */
export function shouldRefreshUser(status: number, url: string): boolean {
  return (status === 401 || status === 403) && !/\/account\/customer|\/join-/.test(url);
}

/** Runs `listener` after a response that should refresh the user; returns the unsubscribe. */
export function onAuthFailure(listener: () => void): () => void {
  authFailureListeners.add(listener);
  return () => authFailureListeners.delete(listener);
}

/**
 * Creates the storefront's Store API client once the runtime config is known: it sends
 * the saved context token and language id and `sw-include-seo-urls`, and saves every
 * new context token in a cookie.
 */
export function initShopSession(config: RuntimeConfig): ShopClient {
  const client = createStoreClient(config, getCookie(CONTEXT_TOKEN_COOKIE) ?? undefined);
  client.defaultHeaders['sw-include-seo-urls'] = 'true';
  const languageId = getCookie(LANGUAGE_ID_COOKIE);
  if (languageId) client.defaultHeaders['sw-language-id'] = languageId;
  client.hook('onContextChanged', (token) => setCookie(CONTEXT_TOKEN_COOKIE, token, COOKIE_MAX_AGE));
  client.hook('onResponseError', (response) => {
    if (shouldRefreshUser(response.status, response.url)) for (const listener of authFailureListeners) listener();
  });
  session = { client, languages: null, context: null };
  return client;
}

export function shopClient(): ShopClient {
  if (!session) throw new Error('the shop session is not initialised');
  return session.client;
}

/** Keeps a context token a response carried in its body. */
export function saveContextToken(token: string | null | undefined): void {
  if (!token || !session) return;
  session.client.defaultHeaders['sw-context-token'] = token;
}

function languages(): Promise<Schemas['Language'][]> {
  if (!session) return Promise.resolve([]);
  session.languages ??= session.client
    .invoke('readLanguages post /language', { body: { associations: { translationCode: {}, locale: {} } } })
    .then(({ data }) => data.elements ?? [])
    .catch((error: unknown) => {
      if (session) session.languages = null;
      throw error;
    });
  return session.languages;
}

/** The shop language of a locale: same code, else same language (en-US → en-GB). */
export function pickLanguageId(
  list: Pick<Schemas['Language'], 'id' | 'translationCode' | 'locale'>[],
  locale: Locale,
): string | null {
  const code = (language: (typeof list)[number]) =>
    language.translationCode?.code ?? (language.locale as { code?: string } | undefined)?.code ?? '';
  const exact = list.find((language) => code(language) === locale);
  const sameLanguage = list.find((language) => code(language).split('-')[0] === locale.split('-')[0]);
  return (exact ?? sameLanguage)?.id ?? null;
}

const SEO_ROUTE_OF: Record<'category' | 'product' | 'landingPage', string> = {
  category: 'frontend.navigation.page',
  product: 'frontend.detail.page',
  landingPage: 'frontend.landing.page',
};

/**
 * The seo path in `locale`'s language of a page named by its language-independent path
 * (`/detail/{id}`, `/navigation/{id}`, `/landingPage/{id}`), `/` prefixed; null when it has
 * none there (the language switch then keeps the technical path).
 */
export async function seoPathIn(technicalPath: string, locale: Locale): Promise<string | null> {
  if (!session) return null;
  const match = /^\/(detail|navigation|landingPage)\/([0-9a-f]{32})$/.exec(technicalPath);
  if (!match) return null;
  const kind = match[1] === 'detail' ? 'product' : match[1] === 'navigation' ? 'category' : 'landingPage';
  const languageId = pickLanguageId(await languages(), locale);
  if (!languageId) return null;
  const { data } = await session.client.invoke('readSeoUrl post /seo-url', {
    headers: { 'sw-language-id': languageId },
    body: {
      limit: 1,
      filter: [
        { type: 'equals', field: 'foreignKey', value: match[2] },
        { type: 'equals', field: 'routeName', value: SEO_ROUTE_OF[kind] },
        { type: 'equals', field: 'isCanonical', value: true },
      ],
    } as never,
  });
  const path = data.elements?.[0]?.seoPathInfo;
  return path ? `/${path.replace(/^\/+/, '')}` : null;
}

/**
 * The locales whose language the shop offers (the merchant may switch German off, issue
 * #32): every locale when the shop's languages cannot be read.
 */
export function offeredLocalesOf(list: Pick<Schemas['Language'], 'id' | 'translationCode' | 'locale'>[]): Locale[] {
  if (list.length === 0) return [...LOCALES];
  return LOCALES.filter((locale) => pickLanguageId(list, locale) !== null);
}

/** The locales the shop offers now (see `offeredLocalesOf`). */
export async function offeredLocales(): Promise<Locale[]> {
  try {
    return offeredLocalesOf(await languages());
  } catch {
    return [...LOCALES];
  }
}

/**
 * Makes the shop answer in the locale's language; keeps the choice in a cookie. Answers
 * false when the shop does not offer the locale's language (then nothing changes).
 */
export async function applyShopLanguage(locale: Locale): Promise<boolean> {
  if (!session) return true;
  let id: string | null = null;
  let list: Schemas['Language'][] | null = null;
  try {
    list = await languages();
    id = pickLanguageId(list, locale);
  } catch (error) {
    console.warn('could not load the shop languages', error);
  }
  if (list && list.length > 0 && !id) return false;
  if (!id || !session) return true;
  if (session.client.defaultHeaders['sw-language-id'] !== id) session.client.defaultHeaders['sw-language-id'] = id;
  setCookie(LANGUAGE_ID_COOKIE, id, COOKIE_MAX_AGE);
  return true;
}

/** The session context (cached); it names the sales channel's navigation category. */
export function shopContext(): Promise<Schemas['SalesChannelContext']> {
  if (!session) return Promise.reject(new Error('the shop session is not initialised'));
  session.context ??= session.client
    .invoke('readContext get /context')
    .then(({ data }) => {
      saveContextToken((data as { token?: string }).token);
      return data;
    })
    .catch((error: unknown) => {
      if (session) session.context = null;
      throw error;
    });
  return session.context;
}
