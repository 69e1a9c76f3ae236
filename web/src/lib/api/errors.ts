import { ApiClientError } from '@shopware/api-client';
import { type ServerError, serverErrorText } from './server-errors';

/** A failed request as the UI sees it (spec section 7). */
export interface ReducedError {
  /** HTTP status; 408 for a timeout, 0 when no response came. */
  statusCode: number;
  messages: string[];
}

function isTimeout(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const { name, message } = current as { name?: unknown; message?: unknown };
    if (name === 'TimeoutError' || (typeof message === 'string' && /timeout|timed out/i.test(message))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function isNetworkError(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  const { name, cause, response } = (error ?? {}) as { name?: unknown; cause?: unknown; response?: unknown };
  return name === 'FetchError' && response === undefined && (cause instanceof TypeError || cause === undefined);
}

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : String(error);
}

/**
 * Reduces any failure of a shop call to a status code and a list of messages: 4xx (but
 * 408) and 500 carry the server's errors list, everything else a single message; a
 * timeout is 408, a network error 0, anything else 500.
 */
export function reduceError(error: unknown): ReducedError {
  if (error instanceof ApiClientError) {
    const statusCode = error.status;
    const usesList = (statusCode >= 400 && statusCode < 500 && statusCode !== 408) || statusCode === 500;
    const listed = usesList
      ? ((error.details as { errors?: ServerError[] } | undefined)?.errors ?? []).map(serverErrorText).filter(Boolean)
      : [];
    return { statusCode, messages: listed.length > 0 ? listed : [error.statusText || error.message] };
  }
  if (isTimeout(error)) return { statusCode: 408, messages: [messageOf(error)] };
  if (isNetworkError(error)) return { statusCode: 0, messages: [messageOf(error)] };
  return { statusCode: 500, messages: [messageOf(error)] };
}
