import { describe, expect, it } from 'vitest';
import { createStore } from 'zustand/vanilla';
import { AdminApi, fileNameOf } from './client';
import { AdminApiError } from './errors';
import type { AdminSession } from './session';

const session: AdminSession = { accessToken: 'a1', refreshToken: 'r1', expiresAt: Date.now() + 600_000, username: 'admin', role: 'admin' };

describe('files from the Admin API', () => {
  it('take the name the server gives', () => {
    expect(fileNameOf('attachment; filename="invoice_1000.pdf"')).toBe('invoice_1000.pdf');
    expect(fileNameOf("attachment; filename*=UTF-8''Rechnung%20%C3%9C.pdf")).toBe('Rechnung Ü.pdf');
    expect(fileNameOf('inline')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });

  it('download a document with the bearer token and answer its bytes and name', async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetchFn = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response('%PDF-1.4', { status: 200, headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': 'attachment; filename="invoice_1000.pdf"' } });
    }) as unknown as typeof fetch;
    const api = new AdminApi('http://shop', fetchFn, createStore<{ session: AdminSession | null }>(() => ({ session })));
    const file = await api.downloadDocument('d1', 'code');
    expect(calls[0]?.url).toBe('http://shop/api/_action/document/d1/code?download=1');
    expect((calls[0]?.init.headers as Record<string, string>).Authorization).toBe('Bearer a1');
    expect(file.fileName).toBe('invoice_1000.pdf');
    expect(await file.blob.text()).toBe('%PDF-1.4');
  });

  it('answer a refusal as an AdminApiError with Shopware’s list', async () => {
    const fetchFn = (async () =>
      new Response(JSON.stringify({ errors: [{ status: '404', code: 'DOCUMENT__DOCUMENT_NOT_FOUND', detail: 'Document not found' }] }), { status: 404 })) as unknown as typeof fetch;
    const api = new AdminApi('http://shop', fetchFn, createStore<{ session: AdminSession | null }>(() => ({ session })));
    const failure = await api.gdprExport('c1').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AdminApiError);
    expect((failure as AdminApiError).code).toBe('DOCUMENT__DOCUMENT_NOT_FOUND');
  });
});
