import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '@/testing/memory-storage';
import { isChunkLoadError, mayReloadFor, RELOAD_GUARD_MS, withReloadGuard } from './reload-guard';


describe('mayReloadFor', () => {
  it('allows one reload per path within 10 s', () => {
    const storage = memoryStorage();
    expect(mayReloadFor('/a', storage, 1_000)).toBe(true);
    expect(mayReloadFor('/a', storage, 1_000 + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(mayReloadFor('/a', storage, 1_000 + RELOAD_GUARD_MS)).toBe(true);
  });

  it('does not hold another path back', () => {
    const storage = memoryStorage();
    expect(mayReloadFor('/a', storage, 0)).toBe(true);
    expect(mayReloadFor('/b', storage, 1)).toBe(true);
  });

  it('survives garbage in storage', () => {
    const storage = memoryStorage();
    storage.setItem('salesroom.chunkReload', '{not json');
    expect(mayReloadFor('/a', storage, 0)).toBe(true);
  });
});

describe('withReloadGuard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reloads once on a chunk load failure, then lets the error through', async () => {
    const storage = memoryStorage();
    vi.stubGlobal('sessionStorage', storage);
    vi.stubGlobal('window', { location: { pathname: '/detail/1' } });
    const reload = vi.fn();
    const failing = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'));
    void withReloadGuard(failing, reload)();
    await vi.waitFor(() => expect(reload).toHaveBeenCalledOnce());
    await expect(withReloadGuard(failing, reload)()).rejects.toThrow('dynamically imported module');
    expect(reload).toHaveBeenCalledOnce();
  });

  it('does not reload for other errors', async () => {
    const reload = vi.fn();
    await expect(withReloadGuard(() => Promise.reject(new Error('bug')), reload)()).rejects.toThrow('bug');
    expect(reload).not.toHaveBeenCalled();
  });

  it('recognises chunk load errors of the browsers', () => {
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('x is undefined'))).toBe(false);
  });
});
