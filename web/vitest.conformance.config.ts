/// <reference types="vitest/config" />
import { defineConfig } from 'vite';

/**
 * The Store API conformance suite: the official client drives a real storefront-proxy
 * (started by the global setup) and every answer is checked against the official schema.
 */
export default defineConfig({
  test: {
    include: ['conformance/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['conformance/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One shop, one journey: files run one after another.
    fileParallelism: false,
  },
});
