import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isLargeScreen, watchLargeScreen } from './large-screen';

describe('large screen', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('starts at 1024 px', () => {
    expect(isLargeScreen(1023)).toBe(false);
    expect(isLargeScreen(1024)).toBe(true);
  });

  it('follows resizes only after they paused for 500 ms', () => {
    const listeners: (() => void)[] = [];
    const target = {
      innerWidth: 800,
      addEventListener: (_: string, listener: () => void) => listeners.push(listener),
      removeEventListener: vi.fn(),
    } as unknown as Window;
    const onChange = vi.fn();
    const stop = watchLargeScreen(target, onChange);
    const resize = (width: number) => {
      (target as { innerWidth: number }).innerWidth = width;
      listeners.forEach((listener) => listener());
    };
    resize(1100);
    vi.advanceTimersByTime(400);
    resize(1200);
    vi.advanceTimersByTime(499);
    expect(onChange).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onChange).toHaveBeenCalledExactlyOnceWith(true);
    resize(1300);
    vi.advanceTimersByTime(500);
    expect(onChange).toHaveBeenCalledTimes(1);
    stop();
    expect(target.removeEventListener).toHaveBeenCalled();
  });
});
