import { describe, expect, it } from 'vitest';
import { loadRuntimeConfig, parseRuntimeConfig } from './runtime';

const valid = {
  shopEndpoint: 'http://127.0.0.1:8000/',
  shopAccessToken: 'SWSCSALESROOMDEMO000000000',
  hubUrl: 'ws://127.0.0.1:8000/ws',
  livekitUrl: null,
};

describe('parseRuntimeConfig', () => {
  it('accepts a complete config and trims the endpoint', () => {
    expect(parseRuntimeConfig(valid)).toEqual({
      ok: true,
      config: { ...valid, shopEndpoint: 'http://127.0.0.1:8000' },
    });
  });

  it('treats missing optional fields as null', () => {
    const result = parseRuntimeConfig({ shopEndpoint: valid.shopEndpoint, shopAccessToken: 'key' });
    expect(result).toMatchObject({ ok: true, config: { hubUrl: null, livekitUrl: null } });
  });

  it.each([
    ['shop endpoint null', { ...valid, shopEndpoint: null }],
    ['shop endpoint empty', { ...valid, shopEndpoint: '  ' }],
    ['access token null', { ...valid, shopAccessToken: null }],
    ['access token missing', { shopEndpoint: valid.shopEndpoint }],
    ['both missing', {}],
  ])('refuses to start with %s', (_, raw) => {
    expect(parseRuntimeConfig(raw)).toEqual({ ok: false, error: 'missingShop' });
  });

  it.each([
    ['not an object', 'config'],
    ['a non-string endpoint', { ...valid, shopEndpoint: 8000 }],
    ['a non-string hub url', { ...valid, hubUrl: true }],
    ['an endpoint that is no URL', { ...valid, shopEndpoint: 'shop' }],
  ])('rejects %s', (_, raw) => {
    expect(parseRuntimeConfig(raw)).toEqual({ ok: false, error: 'invalid' });
  });
});

describe('loadRuntimeConfig', () => {
  it('fetches /runtime-config.json', async () => {
    const fetchFn = (async (input: RequestInfo | URL) => {
      expect(input).toBe('/runtime-config.json');
      return Response.json(valid);
    }) as typeof fetch;
    expect(await loadRuntimeConfig(fetchFn)).toMatchObject({ ok: true });
  });

  it('reports an unreachable or failing server as unavailable', async () => {
    const failing = (async () => new Response('nope', { status: 502 })) as typeof fetch;
    const offline = (async () => {
      throw new TypeError('network');
    }) as typeof fetch;
    expect(await loadRuntimeConfig(failing)).toEqual({ ok: false, error: 'unavailable' });
    expect(await loadRuntimeConfig(offline)).toEqual({ ok: false, error: 'unavailable' });
  });
});
