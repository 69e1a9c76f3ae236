import { ApiClientError } from '@shopware/api-client';
import { describe, expect, it } from 'vitest';
import { joinProblemOf, joinProblemPath } from './join-problem';

function refused(status: number, code?: string) {
  const response = new Response(null, { status }) as Response & { _data: unknown };
  response._data = { errors: code ? [{ status: String(status), code, title: 'refused' }] : [] };
  return new ApiClientError(response as never);
}

describe('joinProblemOf', () => {
  it('maps the DSR error codes', () => {
    expect(joinProblemOf(refused(403, 'DIGITAL_SALES_ROOMS__APPOINTMENT_RESTRICTED'))).toBe('restricted');
    expect(joinProblemOf(refused(403, 'DIGITAL_SALES_ROOMS__APPOINTMENT_LOCKED'))).toBe('locked');
    expect(joinProblemOf(refused(403, 'DIGITAL_SALES_ROOMS__APPOINTMENT_ENDED'))).toBe('ended');
    expect(joinProblemOf(refused(403, 'DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_ACCESSIBLE'))).toBe('notAccessible');
    expect(joinProblemOf(refused(404, 'DIGITAL_SALES_ROOMS__APPOINTMENT_NOT_FOUND'))).toBe('notFound');
  });

  it('falls back on the status, and is null for what a retry may fix', () => {
    expect(joinProblemOf(refused(404))).toBe('notFound');
    expect(joinProblemOf(refused(403))).toBe('denied');
    expect(joinProblemOf(refused(500))).toBeNull();
    expect(joinProblemOf(new TypeError('fetch failed'))).toBeNull();
  });

  it('names the screen of each problem', () => {
    expect(joinProblemPath('notFound')).toBe('/not-found');
    expect(joinProblemPath('locked')).toBe('/denied');
  });
});
