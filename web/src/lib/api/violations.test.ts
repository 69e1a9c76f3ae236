import { ApiClientError } from '@shopware/api-client';
import { describe, expect, it } from 'vitest';
import { violationsByField } from './violations';

describe('violationsByField', () => {
  it('maps Shopware violations to their fields, first one wins', () => {
    const response = new Response(null, { status: 400 }) as Response & { _data: unknown };
    response._data = {
      errors: [
        { code: 'VIOLATION::IS_BLANK_ERROR', detail: 'This value should not be blank.', source: { pointer: '/billingAddress/street' } },
        { code: 'VIOLATION::CUSTOMER_EMAIL_NOT_UNIQUE', detail: 'The email address a@b.de is already in use', source: { pointer: '/email' } },
        { code: 'X', detail: 'second', source: { pointer: '/email' } },
        { code: 'Y', detail: 'no pointer' },
      ],
    };
    expect(violationsByField(new ApiClientError(response as never))).toEqual({
      'billingAddress/street': 'This value should not be blank.',
      email: 'The email address a@b.de is already in use',
    });
  });

  it('gives nothing for other errors', () => {
    expect(violationsByField(new Error('x'))).toEqual({});
  });
});
