// @vitest-environment jsdom
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n } from '@/lib/i18n';
import { NavigationError } from '@/lib/router/middleware';
import { guardedLoader } from './middleware';

const args = (path: string, params: Record<string, string> = {}) =>
  ({ request: new Request(`http://shop.test${path}`), params, context: undefined }) as never;

describe('guardedLoader', () => {
  beforeAll(() => initI18n('en-US'));
  beforeEach(() => sessionStorage.clear());

  it('answers a failed validation check with a 404 Page Not Found', async () => {
    const inner = vi.fn();
    const loader = guardedLoader({ validate: (params) => /^[0-9a-f]{32}$/.test(params.id ?? '') }, inner);
    const error = await Promise.resolve(loader(args('/checkout/success/nope', { id: 'nope' }))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NavigationError);
    expect(error).toMatchObject({ statusCode: 404, message: 'Page Not Found: /checkout/success/nope' });
    expect(inner).not.toHaveBeenCalled();
  });

  it('raises Unknown route middleware for an unknown name', async () => {
    await expect(Promise.resolve(guardedLoader({ middleware: ['nope'] })(args('/x')))).rejects.toThrow('Unknown route middleware: nope');
  });

  it('switches the texts to the locale of the path before the page loads', async () => {
    const { default: i18next } = await import('i18next');
    const inner = vi.fn(() => i18next.language);
    expect(await guardedLoader({}, inner)(args('/de-DE/Kleidung/'))).toBe('de-DE');
    expect(await guardedLoader({}, inner)(args('/Clothing/'))).toBe('en-US');
  });

  it('sends a guide without login from the room to the login, under the same locale', async () => {
    const loader = guardedLoader({ middleware: ['guide-auth-guard'] }, () => 'room');
    const response = (await loader(args('/de-DE/guide/demo', { appointmentId: 'demo' }))) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/de-DE/guide/demo/login');
    expect(await loader(args('/guide/demo/login', { appointmentId: 'demo' }))).toBe('room');
    sessionStorage.setItem('salesroom.adminSession', JSON.stringify({ accessToken: 't', expirationTime: 0 }));
    expect(await loader(args('/guide/demo', { appointmentId: 'demo' }))).toBe('room');
  });

  it('opens the report with the backoffice login, without a second one (issue #31, item 4)', async () => {
    const { adminSessionStore } = await import('@/features/admin/api/session');
    const loader = guardedLoader({ middleware: ['guide-auth-guard'] }, () => 'report');
    const id = 'f'.repeat(32);
    const response = (await loader(args(`/guide/report/${id}`, { appointmentId: id }))) as Response;
    expect(response.headers.get('Location')).toBe(`/guide/${id}/login?next=report`);
    adminSessionStore.setState({ session: { accessToken: 'a', refreshToken: 'r', expiresAt: 5, username: 'admin', role: 'admin' } });
    expect(await loader(args(`/guide/report/${id}`, { appointmentId: id }))).toBe('report');
    expect(JSON.parse(sessionStorage.getItem('salesroom.adminSession') ?? 'null')).toEqual({ accessToken: 'a', refreshToken: 'r', expirationTime: 5 });
    adminSessionStore.setState({ session: null });
  });

  it('sends an attendee without a join to the pre-join screen', async () => {
    const loader = guardedLoader({ middleware: ['presentation-pre-action'] }, () => 'room');
    const response = (await loader(args('/presentation/demo', { appointmentId: 'demo' }))) as Response;
    expect(response.headers.get('Location')).toBe('/presentation/demo/prejoin');
  });
});
