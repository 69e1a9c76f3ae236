import { ApiClientError } from '@shopware/api-client';
import { describe, expect, it } from 'vitest';
import { messagesOf } from './messages';

const failure = (status: number, errors: { detail?: string; title?: string }[]) => new ApiClientError({ status, url: '/store-api/account/change-password', _data: { errors } } as never);

describe('messages of a failed call', () => {
  it('lists the details of every server error for 4xx and 500, without duplicates', () => {
    const error = failure(400, [{ detail: 'The password is not correct.' }, { detail: 'Too short.' }, { detail: 'Too short.' }]);
    expect(messagesOf(error, 'generic')).toEqual(['The password is not correct.', 'Too short.']);
    expect(messagesOf(failure(500, [{ title: 'Internal' }]), 'generic')).toEqual(['Internal']);
  });

  it('uses the single fallback for 408, other statuses, empty lists and non-API errors', () => {
    expect(messagesOf(failure(408, [{ detail: 'x' }]), 'generic')).toEqual(['generic']);
    expect(messagesOf(failure(503, [{ detail: 'x' }]), 'generic')).toEqual(['generic']);
    expect(messagesOf(failure(400, []), 'generic')).toEqual(['generic']);
    expect(messagesOf(new Error('offline'), 'generic')).toEqual(['generic']);
  });
});
