import { test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startServers, type Servers } from './global-setup';

/**
 * For room specs whose guide starts, locks or ends the appointment (which changes it for
 * good): the spec gets its own fresh servers, started before its first test and stopped
 * after its last, and a page per participant, each in its own browser context.
 */
export function ownServers() {
  let servers: Servers;

  test.use({ actionTimeout: 15_000 });

  test.beforeAll(async () => {
    servers = await startServers();
  });

  test.afterAll(async () => {
    await servers?.teardown();
  });

  return {
    /** The hub's origin of these servers (its `/metrics`). */
    hubUrl: (): string => servers.hubUrl,
    /** A desktop-sized page in a new browser context; `prepare` runs on the context first. */
    newPage: async (browser: Browser, prepare?: (context: BrowserContext) => Promise<void>): Promise<Page> => {
      const context = await browser.newContext({ baseURL: servers.origin, viewport: { width: 1440, height: 900 } });
      await prepare?.(context);
      return context.newPage();
    },
  };
}
