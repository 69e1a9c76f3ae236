import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * Measurements in real browsers against the real servers (`npm run bench:click-to-screen`);
 * not part of `make test`. Each bench starts its own servers.
 */
export default defineConfig({
  ...base,
  testDir: './e2e/bench',
  testMatch: '*.bench.ts',
  globalSetup: undefined,
  reporter: 'list',
  use: { ...base.use, baseURL: undefined, trace: 'off' },
});
