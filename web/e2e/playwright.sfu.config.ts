import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';

/**
 * The video specs of the embedded sfu (`npx playwright test -c e2e/playwright.sfu.config.ts`):
 * each starts the `sfu` binary itself (and the app spec its own hub and proxy). The
 * main config runs room-video-sfu.spec.ts too; the app spec only runs here until the sfu
 * is wired into `make up` (issue #13).
 */
export default defineConfig({
  testDir: '.',
  testMatch: ['room-video-sfu.spec.ts', 'room-video-app-sfu.spec.ts'],
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
