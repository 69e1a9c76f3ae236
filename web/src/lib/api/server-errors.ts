import i18next from 'i18next';
import type { serverErrorsEn } from '@/lib/i18n/locales/server-errors.en';

type Texts = typeof serverErrorsEn;
type ServerErrorKey = `serverErrors.codes.${keyof Texts['codes']}` | `serverErrors.violations.${keyof Texts['violations']}`;
type CartErrorKey = `serverErrors.cart.${keyof Texts['cart']}`;

/** One entry of the shop's `errors` list (Shopware's shape). */
export interface ServerError {
  code?: string;
  detail?: string;
  title?: string;
}

/** `t` for keys made at run time from a code; `exists` checks them first. */
const translate = (key: string, values: Record<string, string>): string =>
  (i18next.t as unknown as (key: string, values: Record<string, string>) => string)(key, values);

/** The i18n key of a shop error code: `serverErrors.codes.X`, or `serverErrors.violations.X` for `VIOLATION::X`. */
export function serverErrorKey(code: string): ServerErrorKey {
  const violation = /^VIOLATION::([A-Z0-9_]+)$/.exec(code);
  if (violation) return `serverErrors.violations.${violation[1]}` as ServerErrorKey;
  return `serverErrors.codes.${code}` as ServerErrorKey;
}

/** The i18n key of a cart error's `messageKey` (`promotion-not-found`). */
export function cartErrorKey(messageKey: string): CartErrorKey {
  return `serverErrors.cart.${messageKey}` as CartErrorKey;
}

/** The first number of the server's English detail: the limit a violation names ("at least 8 characters"). */
function numberIn(detail: string | undefined): string {
  return /\d+/.exec(detail ?? '')?.[0] ?? '';
}

/**
 * A shop error in the page's language: the text of its code, else the server's own words
 * (an upstream Shopware may send codes this shop does not know).
 */
export function serverErrorText(error: ServerError): string {
  const key = error.code ? serverErrorKey(error.code) : null;
  if (key && i18next.exists(key)) return translate(key, { number: numberIn(error.detail) });
  return error.detail || error.title || '';
}

/** A cart error (`messageKey` and its subject, the item id or promotion code) in the page's language, else the shop's message. */
export function cartErrorMessage(messageKey: string, values: { subject: string; name: string }, message: string): string {
  const key = cartErrorKey(messageKey);
  return messageKey && i18next.exists(key) ? translate(key, values) : message;
}
