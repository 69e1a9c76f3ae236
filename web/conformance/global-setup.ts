import type { TestProject } from 'vitest/node';
import { startServers } from '../e2e/global-setup';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The storefront-proxy's origin; the Store API is under `/store-api`. */
    origin: string;
  }
}

/** One real hub and storefront-proxy over a fresh data directory for the whole suite. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { origin, teardown } = await startServers({ webApp: false });
  project.provide('origin', origin);
  return teardown;
}
