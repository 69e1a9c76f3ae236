import { loadLocaleTexts } from '@/lib/i18n';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { de } from '@/lib/i18n/locales/de';
import { en } from '@/lib/i18n/locales/en';
import { AdminApi } from './client';
import { AdminApiError, fieldErrors, syncErrors } from './errors';
import type { AdminSession } from './session';

beforeAll(async () => {
  await i18next.init({ lng: 'en', fallbackLng: 'en', resources: { en: { translation: en }, de: { translation: de } } });
});

type Call = { url: string; method: string; headers: Record<string, string>; body: unknown };

/** A fetch that answers from `replies` in order and records every call. */
function fakeFetch(replies: [number, unknown][]) {
  const calls: Call[] = [];
  const fn = (async (url: string, init: RequestInit) => {
    calls.push({ url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body });
    const [status, body] = replies.shift() ?? [500, { errors: [{ code: 'NO_REPLY' }] }];
    return new Response(body === null ? null : JSON.stringify(body), { status });
  }) as unknown as typeof fetch;
  return { fn, calls };
}

const tokens = (access: string) => ({ token_type: 'Bearer', expires_in: 600, access_token: access, refresh_token: `r-${access}` });
const newStore = (session: AdminSession | null = null) => createStore<{ session: AdminSession | null }>(() => ({ session }));

describe('AdminApi', () => {
  it('logs in with the password grant and finds an admin by the user list', async () => {
    const { fn, calls } = fakeFetch([
      [200, tokens('a1')],
      [200, { total: 1, data: [] }],
    ]);
    const store = newStore();
    const session = await new AdminApi('http://shop', fn, store).login('admin', 'pw');
    expect(session.role).toBe('admin');
    expect(calls[0]).toMatchObject({ url: 'http://shop/api/oauth/token', method: 'POST', body: { grant_type: 'password', client_id: 'administration', username: 'admin', password: 'pw' } });
    expect(calls[1]?.headers.Authorization).toBe('Bearer a1');
    expect(store.getState().session?.accessToken).toBe('a1');
  });

  it('publishes the session once, with its role (a login half known renders nothing)', async () => {
    const { fn } = fakeFetch([
      [200, tokens('a1')],
      [200, { total: 1, data: [] }],
    ]);
    const store = newStore();
    const seen: (AdminSession | null)[] = [];
    store.subscribe((state) => seen.push(state.session));
    await new AdminApi('http://shop', fn, store).login('admin', 'pw');
    expect(seen.map((session) => session?.role)).toEqual(['admin']);
  });

  it('knows a guide by the refused user list', async () => {
    const { fn } = fakeFetch([
      [200, tokens('g1')],
      [403, { errors: [{ status: '403', code: 'FRAMEWORK__MISSING_PRIVILEGE_ERROR' }] }],
    ]);
    const store = newStore();
    expect((await new AdminApi('http://shop', fn, store).login('gina', 'pw')).role).toBe('guide');
    expect(store.getState().session?.role).toBe('guide');
  });

  it('answers a refused login as an error and keeps no session', async () => {
    const { fn } = fakeFetch([[400, { errors: [{ status: '400', code: '6', title: 'invalid_grant', detail: 'The user credentials were incorrect.' }] }]]);
    const store = newStore();
    const failure = await new AdminApi('http://shop', fn, store).login('admin', 'wrong').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(AdminApiError);
    expect((failure as AdminApiError).code).toBe('6');
    expect(store.getState().session).toBeNull();
  });

  it('refreshes once on a 401 and retries; a refused refresh logs out', async () => {
    const session: AdminSession = { accessToken: 'old', refreshToken: 'r-old', expiresAt: Date.now() + 600_000, username: 'admin', role: 'admin' };
    const { fn, calls } = fakeFetch([
      [401, { errors: [{ code: 'FRAMEWORK__UNAUTHORIZED' }] }],
      [200, tokens('new')],
      [200, { data: { id: 'x' } }],
    ]);
    const store = newStore(session);
    const api = new AdminApi('http://shop', fn, store);
    expect(await api.get('category', 'x')).toEqual({ id: 'x' });
    expect(calls[1]?.body).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'r-old' });
    expect(calls[2]?.headers.Authorization).toBe('Bearer new');
    expect(store.getState().session?.accessToken).toBe('new');

    const refused = fakeFetch([
      [401, { errors: [{ code: 'FRAMEWORK__UNAUTHORIZED' }] }],
      [401, { errors: [{ code: '9' }] }],
    ]);
    const gone = newStore(session);
    await expect(new AdminApi('http://shop', refused.fn, gone).get('category', 'x')).rejects.toBeInstanceOf(AdminApiError);
    expect(gone.getState().session).toBeNull();
  });

  it('logs out at once and revokes the login on the server', async () => {
    const { fn, calls } = fakeFetch([[200, null]]);
    const store = newStore({ accessToken: 'a1', refreshToken: 'r-a1', expiresAt: Date.now() + 600_000, username: 'admin', role: 'admin' });
    new AdminApi('http://shop', fn, store).logout();
    expect(store.getState().session).toBeNull();
    await Promise.resolve();
    expect(calls).toEqual([
      { url: 'http://shop/api/oauth/revoke', method: 'POST', headers: expect.objectContaining({ Authorization: 'Bearer a1' }) as unknown, body: { token: 'r-a1' } },
    ]);
  });

  it('turns a non-JSON failure into an error with the status', async () => {
    const { fn } = fakeFetch([[502, null]]);
    const failure = (await new AdminApi('http://shop', fn, newStore()).search('product').catch((e: unknown) => e)) as AdminApiError;
    expect(failure.status).toBe(502);
    expect(failure.errors).toHaveLength(1);
  });
});

describe('error mapping', () => {
  const violations = new AdminApiError(400, [
    { status: '400', code: 'VIOLATION::IS_BLANK_ERROR', detail: 'This value should not be blank.', source: { pointer: '/0/name' } },
    { status: '400', code: 'VIOLATION::TYPE_ERROR', detail: 'A price is a number of 0 or more.', source: { pointer: '/0/price/0/gross' } },
    { status: '400', code: 'VIOLATION::DUPLICATE_VALUE', detail: 'x', source: { pointer: '/0/name' } },
    { status: '400', code: 'SOMETHING_NEW', detail: 'The server says so.', source: { pointer: '/0/colour' } },
  ]);

  it('puts violations at their fields without the record index, first one wins, in the page language', async () => {
    await i18next.changeLanguage('en');
    const english = fieldErrors(violations);
    expect(Object.keys(english)).toEqual(['name', 'price/0/gross', 'colour']);
    expect(english.colour).toBe('The server says so.');
    await loadLocaleTexts('de-DE');
    await i18next.changeLanguage('de');
    const german = fieldErrors(violations);
    expect(german.name).toBe(de.serverErrors.violations.IS_BLANK_ERROR);
    expect(german.name).not.toBe(english.name);
    await i18next.changeLanguage('en');
  });

  it('names the operation, record and field of a refused sync', () => {
    const refused = new AdminApiError(400, [
      { code: 'VIOLATION::TYPE_ERROR', detail: 'x', source: { pointer: '/import-products/2/price/0/gross' } },
      { code: 'FRAMEWORK__INVALID_SYNC_OPERATION', detail: 'y', source: { pointer: '/x/entity' } },
    ]);
    expect(syncErrors(refused).map(({ operation, index, field }) => ({ operation, index, field }))).toEqual([
      { operation: 'import-products', index: 2, field: 'price/0/gross' },
      { operation: 'x', index: null, field: 'entity' },
    ]);
    expect(fieldErrors(new Error('not from the API'))).toEqual({});
  });
});
