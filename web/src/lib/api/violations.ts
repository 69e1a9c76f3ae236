import { ApiClientError } from '@shopware/api-client';
import { serverErrorText } from './server-errors';

/** Field errors from a Shopware violation response, in the page's language, keyed by pointer without the leading slash ('billingAddress/street'). */
export function violationsByField(error: unknown): Record<string, string> {
  if (!(error instanceof ApiClientError)) return {};
  const errors = (error.details as { errors?: { detail?: string; code?: string; source?: { pointer?: string } }[] } | undefined)?.errors ?? [];
  const fields: Record<string, string> = {};
  for (const entry of errors) {
    const pointer = entry.source?.pointer?.replace(/^\//, '');
    const text = serverErrorText(entry);
    if (pointer && text && !fields[pointer]) fields[pointer] = text;
  }
  return fields;
}
