/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { viteStaticCopy } from 'vite-plugin-static-copy';

/**
 * Background effects run MediaPipe's segmenter: its WebAssembly runtime is served from
 * our own origin (`/mediapipe/`, beside the model in public/mediapipe), not a CDN.
 */
const mediapipeAssets = viteStaticCopy({
  targets: [{ src: 'node_modules/@mediapipe/tasks-vision/wasm/vision_wasm_internal.*', dest: 'mediapipe', rename: { stripBase: true } }],
});

export default defineConfig({
  plugins: [react(), mediapipeAssets],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: { outDir: 'dist' },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'eslint.config.test.ts'],
    environment: 'node',
  },
});
