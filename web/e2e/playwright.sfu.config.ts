import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';

/**
 * The video spec alone, without the hub and proxy of the main config's global setup: it
 * starts the `sfu` binary itself (`npx playwright test -c e2e/playwright.sfu.config.ts`).
 */
export default defineConfig({
  testDir: '.',
  testMatch: 'room-video-sfu.spec.ts',
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_FLAGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
    },
  },
});
