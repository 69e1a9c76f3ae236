import { ApiClientError } from '@shopware/api-client';
import { describe, expect, it } from 'vitest';
import { addressErrorMessages } from './address-errors';

function apiError(errors: object[]) {
  const response = new Response(null, { status: 400 }) as Response & { _data: unknown };
  response._data = { errors };
  return new ApiClientError(response as never);
}

describe('addressErrorMessages', () => {
  it('names the field of blank-field violations and drops other codes', () => {
    const error = apiError([
      { code: 'VIOLATION::IS_BLANK_ERROR', detail: 'This value should not be blank.', source: { pointer: '/street' } },
      { code: 'VIOLATION::NO_SUCH_CHOICE_ERROR', detail: 'The selected country does not exist.', source: { pointer: '/countryId' } },
      { code: 'VIOLATION::IS_BLANK_ERROR', detail: 'This value should not be blank.', source: { pointer: '/city' } },
    ]);
    expect(addressErrorMessages(error, (field) => ({ street: 'Street', city: 'City' })[field] ?? field)).toEqual([
      'Street: This value should not be blank.',
      'City: This value should not be blank.',
    ]);
  });

  it('shows nothing for other failures', () => {
    expect(addressErrorMessages(new Error('offline'), (field) => field)).toEqual([]);
  });
});
