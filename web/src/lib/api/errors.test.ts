import { ApiClientError } from '@shopware/api-client';
import { describe, expect, it } from 'vitest';
import { reduceError } from './errors';

function apiError(status: number, errors: { detail?: string; title?: string }[] = [], statusText = 'Status text') {
  const response = new Response(null, { status, statusText }) as Response & { _data: unknown };
  response._data = { errors };
  return new ApiClientError(response as never);
}

describe('reduceError', () => {
  it('keeps the server errors list for 4xx', () => {
    expect(reduceError(apiError(400, [{ detail: 'Email is blank' }, { title: 'Password too short' }]))).toEqual({
      statusCode: 400,
      messages: ['Email is blank', 'Password too short'],
    });
    expect(reduceError(apiError(404, [{ detail: 'Product not found' }])).messages).toEqual(['Product not found']);
  });

  it('keeps the server errors list for 500', () => {
    expect(reduceError(apiError(500, [{ detail: 'Broken' }]))).toEqual({ statusCode: 500, messages: ['Broken'] });
  });

  it('uses a single message for 408 and 5xx other than 500', () => {
    expect(reduceError(apiError(408, [{ detail: 'ignored' }], 'Request Timeout'))).toEqual({
      statusCode: 408,
      messages: ['Request Timeout'],
    });
    expect(reduceError(apiError(503, [{ detail: 'ignored' }], 'Service Unavailable'))).toEqual({
      statusCode: 503,
      messages: ['Service Unavailable'],
    });
  });

  it('maps a timeout to 408', () => {
    const timeout = new DOMException('The operation timed out.', 'TimeoutError');
    const wrapped = Object.assign(new Error('[POST] "/store-api/product": <no response> The operation was aborted due to timeout'), {
      name: 'FetchError',
      cause: timeout,
    });
    expect(reduceError(timeout).statusCode).toBe(408);
    expect(reduceError(wrapped).statusCode).toBe(408);
  });

  it('maps a network error to 0', () => {
    expect(reduceError(new TypeError('Failed to fetch'))).toEqual({ statusCode: 0, messages: ['Failed to fetch'] });
    const wrapped = Object.assign(new Error('<no response> Failed to fetch'), { name: 'FetchError', cause: new TypeError('Failed to fetch') });
    expect(reduceError(wrapped).statusCode).toBe(0);
  });

  it('maps anything else to 500 with one message', () => {
    expect(reduceError(new Error('boom'))).toEqual({ statusCode: 500, messages: ['boom'] });
    expect(reduceError('odd')).toEqual({ statusCode: 500, messages: ['odd'] });
  });
});
