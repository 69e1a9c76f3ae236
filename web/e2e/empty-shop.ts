import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { test, type Browser, type Page } from '@playwright/test';
import { startServers, type Servers } from './global-setup';

/**
 * For the backoffice specs that start from an empty shop (`DEMO=0`, the admin password
 * `adminPassword` as `make up` would print it): the spec gets its own servers, started
 * before its first test and stopped after its last, desktop pages each in its own
 * context, and the outbox the servers write their mails to.
 */
export function emptyShop(adminPassword: string) {
  let servers: Servers;

  test.use({ actionTimeout: 15_000 });

  test.beforeAll(async () => {
    servers = await startServers({ env: { DEMO: '0', ADMIN_PASSWORD: adminPassword } });
  });

  test.afterAll(async () => {
    await servers?.teardown();
  });

  return {
    /** The shop's origin. */
    origin: (): string => servers.origin,
    /** A desktop-sized page in a new browser context. */
    newPage: async (browser: Browser): Promise<Page> => {
      const context = await browser.newContext({ baseURL: servers.origin, viewport: { width: 1440, height: 900 } });
      return context.newPage();
    },
    /** The outbox's mails to `to` (the `.eml` files in DATA_DIR/mail). */
    mailsTo: async (to: string): Promise<string[]> => {
      const dir = path.join(servers.dataDir, 'mail');
      const files = await readdir(dir).catch(() => [] as string[]);
      const mails = await Promise.all(files.map((file) => readFile(path.join(dir, file), 'utf8')));
      return mails.filter((mail) => mail.includes(`<${to}>`));
    },
  };
}

/** Wall-clock `YYYY-MM-DDTHH:mm` in UTC, `minutes` from now (a `datetime-local` field's value). */
export function utcInput(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString().slice(0, 16);
}
