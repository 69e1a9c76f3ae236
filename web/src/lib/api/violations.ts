import { ApiClientError } from '@shopware/api-client';

/** Field errors from a Shopware violation response, keyed by pointer without the leading slash ('billingAddress/street'). */
export function violationsByField(error: unknown): Record<string, string> {
  if (!(error instanceof ApiClientError)) return {};
  const errors = (error.details as { errors?: { detail?: string; code?: string; source?: { pointer?: string } }[] } | undefined)?.errors ?? [];
  const fields: Record<string, string> = {};
  for (const entry of errors) {
    const pointer = entry.source?.pointer?.replace(/^\//, '');
    if (pointer && entry.detail && !fields[pointer]) fields[pointer] = entry.detail;
  }
  return fields;
}
