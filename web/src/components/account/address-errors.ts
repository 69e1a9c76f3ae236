import { ApiClientError } from '@shopware/api-client';

/**
 * The messages of a failed address save (spec section 5): a blank-field violation
 * (VIOLATION::IS_BLANK_ERROR) shows the field's name and the detail; other codes show
 * nothing. `label` names a field by the last part of its pointer.
 */
export function addressErrorMessages(error: unknown, label: (field: string) => string): string[] {
  if (!(error instanceof ApiClientError)) return [];
  const errors = (error.details as { errors?: { code?: string; detail?: string; source?: { pointer?: string } }[] } | undefined)?.errors ?? [];
  return errors
    .filter((entry) => entry.code === 'VIOLATION::IS_BLANK_ERROR')
    .map((entry) => {
      const field = entry.source?.pointer?.split('/').filter(Boolean).pop() ?? '';
      return `${label(field)}: ${entry.detail ?? ''}`.trim();
    });
}
