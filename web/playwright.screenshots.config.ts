import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * Screenshots of the room for docs/screenshots (`npm run screenshots:room`); not part of
 * `make test`. The script starts its own servers.
 */
export default defineConfig({
  ...base,
  testDir: './e2e/screenshots',
  testMatch: '*.shots.ts',
  globalSetup: undefined,
  reporter: 'list',
  use: { ...base.use, baseURL: undefined, trace: 'off' },
});
