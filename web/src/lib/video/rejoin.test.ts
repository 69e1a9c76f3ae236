import { describe, expect, it } from 'vitest';
import { STUCK_RECONNECT_MS, rejoinDelay } from './rejoin';

describe('rejoinDelay', () => {
  it('backs off from one second to at most thirty', () => {
    const delays = Array.from({ length: 10 }, (_, attempt) => rejoinDelay(attempt));
    expect(delays[0]).toBe(1_000);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]!);
    expect(Math.max(...delays)).toBe(30_000);
  });

  it('gives livekit-client time for its own reconnect first', () => {
    // Its default policy retries for about 20 s with growing pauses; the app waits that long.
    expect(STUCK_RECONNECT_MS).toBeGreaterThanOrEqual(15_000);
  });
});
