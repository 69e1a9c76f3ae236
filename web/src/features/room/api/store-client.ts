import type { RuntimeConfig } from '@/config/runtime';
import { createStoreClient } from '@/lib/api/shop';
import { shopClient } from '@/lib/shop/session';

/** The shop language the storefront session uses (the locale's), if any. */
export function sessionLanguageId(): string | undefined {
  try {
    return shopClient().defaultHeaders['sw-language-id'] || undefined;
  } catch {
    return undefined;
  }
}

/**
 * A Store API client for a room participant's context that answers in the page's shop
 * language, like the storefront session does.
 */
export function roomStoreClient(config: RuntimeConfig, contextToken?: string) {
  const client = createStoreClient(config, contextToken);
  const languageId = sessionLanguageId();
  if (languageId) client.defaultHeaders['sw-language-id'] = languageId;
  return client;
}
