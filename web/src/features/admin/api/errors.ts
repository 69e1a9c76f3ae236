import { serverErrorText, type ServerError } from '@/lib/api/server-errors';

/** One entry of the Admin API's `errors` list (Shopware's shape). */
export interface AdminErrorEntry extends ServerError {
  status?: string;
  source?: { pointer?: string };
}

/** A refused Admin API call: its HTTP status and Shopware's error list. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: AdminErrorEntry[],
  ) {
    super(errors[0]?.detail || errors[0]?.title || `HTTP ${status}`);
    this.name = 'AdminApiError';
  }

  /** The first error's code (`FRAMEWORK__MISSING_PRIVILEGE_ERROR`, `VIOLATION::IS_BLANK_ERROR`, OAuth's `6`). */
  get code(): string | undefined {
    return this.errors[0]?.code;
  }
}

/**
 * Field errors of a single write, in the page's language, keyed by the field's path:
 * the API's pointer without the record index (`/0/price/0/gross` → `price/0/gross`).
 * The first error of a field wins; errors without a pointer are left out.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof AdminApiError)) return {};
  const fields: Record<string, string> = {};
  for (const entry of error.errors) {
    const pointer = entry.source?.pointer;
    if (!pointer) continue;
    const field = pointer.replace(/^\/\d+(?=\/|$)/, '').replace(/^\//, '');
    if (field && !(field in fields)) fields[field] = serverErrorText(entry);
  }
  return fields;
}

/** The errors of a refused write that name no field (or all of them, for a toast). */
export function generalErrors(error: unknown): string[] {
  if (!(error instanceof AdminApiError)) return [];
  return error.errors.filter((entry) => !entry.source?.pointer).map((entry) => serverErrorText(entry));
}

/** A record a refused `_action/sync` names: the operation's key, the record's index in its payload, the field. */
export interface SyncRecordError {
  operation: string;
  index: number | null;
  field: string;
  message: string;
}

/** The records and fields a refused sync names (`/write-product/1/price/0/gross`). */
export function syncErrors(error: unknown): SyncRecordError[] {
  if (!(error instanceof AdminApiError)) return [];
  return error.errors.map((entry) => {
    const [operation = '', index = '', ...field] = (entry.source?.pointer ?? '').replace(/^\//, '').split('/');
    const number = /^\d+$/.test(index) ? Number(index) : null;
    return {
      operation,
      index: number,
      field: number === null ? [index, ...field].filter(Boolean).join('/') : field.join('/'),
      message: serverErrorText(entry),
    };
  });
}

/** The text of any failure: the API's first error in the page's language, else `fallback`. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof AdminApiError && error.errors[0]) return serverErrorText(error.errors[0]) || fallback;
  return fallback;
}
