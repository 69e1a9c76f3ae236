/** The official Store API client, with every answer checked against the official schema. */
import { ApiClientError, createAPIClient } from '@shopware/api-client';
import type { operations } from '@shopware/api-client/store-api-types';
import { inject } from 'vitest';
import { violations } from './schema';

/** The demo sales channel's access key (CONTRACT.md). */
export const ACCESS_KEY = 'SWSCSALESROOMDEMO000000000';

/** Every `method path status` this run validated, for the coverage report. */
export const validated = new Set<string>();

export class SchemaViolation extends Error {}

function check(operation: string, status: number, body: unknown): void {
  const [, method = '', path = ''] = operation.split(' ');
  const problems = violations(path, method, status, body);
  validated.add(`${method.toUpperCase()} ${path} ${status}`);
  if (problems.length > 0) {
    throw new SchemaViolation(`${method.toUpperCase()} ${path} answered ${status} off the schema:\n  ${problems.slice(0, 20).join('\n  ')}`);
  }
}

/**
 * A client of the suite's shop. `invoke` behaves as the library's (same operations,
 * same errors) and additionally throws SchemaViolation for an answer that does not
 * match the document, errors included.
 */
export function shopClient(contextToken?: string) {
  const client = createAPIClient<operations>({
    baseURL: `${inject('origin')}/store-api`,
    accessToken: ACCESS_KEY,
    contextToken,
  });
  const invoke = (async (operation: string, ...params: unknown[]) => {
    try {
      const result = await (client.invoke as (op: string, ...rest: unknown[]) => Promise<{ data: unknown; status: number }>)(
        operation,
        ...params,
      );
      check(operation, result.status, result.data);
      return result;
    } catch (error) {
      if (error instanceof ApiClientError) check(operation, error.status, error.details);
      throw error;
    }
  }) as typeof client.invoke;
  return { ...client, invoke };
}

/** The ApiClientError a call failed with; fails the test when it succeeded. */
export async function failure(call: Promise<unknown>): Promise<ApiClientError<{ errors: { code: string; status: string }[] }>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiClientError) return error;
    throw error;
  }
  throw new Error('the call succeeded but was expected to fail');
}
