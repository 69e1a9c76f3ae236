import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './e2e/chromium';

/**
 * Browser tests against the real hub and storefront-proxy, which `e2e/global-setup.ts`
 * starts on free ports (it sets SALESROOM_BASE_URL). Chromium is Debian's.
 */
export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  forbidOnly: !!process.env.CI,
  // On CI one retry: a test that fails twice fails the run; one that passes on retry is
  // reported as flaky in the output, to be mended rather than ignored.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'line' : 'list',
  // A loaded CI machine (two cores, debug servers) can take longer than Playwright's 5 s to
  // finish a navigation whose loader asks the shop (seen: a category page after a menu click).
  expect: { timeout: process.env.CI ? 15_000 : 5_000 },
  use: {
    baseURL: process.env.SALESROOM_BASE_URL,
    trace: 'retain-on-failure',
    // As a user who asked for less motion: toasts and sliders do not animate, so what
    // a test (and axe's contrast check) sees is what stays on screen.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        ...CHROMIUM_FLAGS,
        // Camera and microphone: fake devices, permission granted without a prompt.
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
      ],
    },
  },
});
