import { ApiClientError } from '@shopware/api-client';
import { type ServerError, serverErrorText } from './server-errors';

/**
 * A failed call as a list of messages (spec sections 5 and 7): the shop's errors for 4xx
 * (except 408) and 500, each in the page's language (`serverErrorText`), else `fallback` alone.
 */
export function messagesOf(error: unknown, fallback: string): string[] {
  if (!(error instanceof ApiClientError)) return [fallback];
  const status = error.status;
  const useList = (status >= 400 && status < 500 && status !== 408) || status === 500;
  if (!useList) return [fallback];
  const errors = (error.details as { errors?: ServerError[] } | undefined)?.errors ?? [];
  const list = [...new Set(errors.map(serverErrorText).filter(Boolean))];
  return list.length > 0 ? list : [fallback];
}
