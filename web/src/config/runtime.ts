import { createContext, useContext } from 'react';

/** The configuration the server hands the app at `GET /runtime-config.json`. */
export interface RuntimeConfig {
  /** Base URL of the shop, without a trailing slash; `/store-api` and `/api` live under it. */
  shopEndpoint: string;
  /** Sales channel access key, sent as `sw-access-key`. */
  shopAccessToken: string;
  /** Hub WebSocket URL, used when a join response names none. */
  hubUrl: string | null;
  livekitUrl: string | null;
}

/** Why the app cannot start; each is an i18n key under `config.`. */
export type RuntimeConfigError = 'missingShop' | 'invalid' | 'unavailable';

export type RuntimeConfigResult =
  | { ok: true; config: RuntimeConfig }
  | { ok: false; error: RuntimeConfigError };

function isOptionalString(value: unknown): value is string | null | undefined {
  return value === undefined || value === null || typeof value === 'string';
}

export function parseRuntimeConfig(raw: unknown): RuntimeConfigResult {
  if (typeof raw !== 'object' || raw === null) return { ok: false, error: 'invalid' };
  const { shopEndpoint, shopAccessToken, hubUrl, livekitUrl } = raw as Record<string, unknown>;
  if (
    !isOptionalString(shopEndpoint) ||
    !isOptionalString(shopAccessToken) ||
    !isOptionalString(hubUrl) ||
    !isOptionalString(livekitUrl)
  ) {
    return { ok: false, error: 'invalid' };
  }
  if (!shopEndpoint?.trim() || !shopAccessToken?.trim()) return { ok: false, error: 'missingShop' };
  if (!URL.canParse(shopEndpoint)) return { ok: false, error: 'invalid' };
  return {
    ok: true,
    config: {
      shopEndpoint: shopEndpoint.trim().replace(/\/+$/, ''),
      shopAccessToken: shopAccessToken.trim(),
      hubUrl: hubUrl || null,
      livekitUrl: livekitUrl || null,
    },
  };
}

export async function loadRuntimeConfig(fetchFn: typeof fetch = fetch): Promise<RuntimeConfigResult> {
  let raw: unknown;
  try {
    const response = await fetchFn('/runtime-config.json', { cache: 'no-store' });
    if (!response.ok) return { ok: false, error: 'unavailable' };
    raw = await response.json();
  } catch {
    return { ok: false, error: 'unavailable' };
  }
  return parseRuntimeConfig(raw);
}

export const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

export function useRuntimeConfig(): RuntimeConfig {
  const config = useContext(RuntimeConfigContext);
  if (!config) throw new Error('useRuntimeConfig must be used inside the app provider');
  return config;
}
