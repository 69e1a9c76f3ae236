import { describe, expect, it, vi } from 'vitest';
import { BACKGROUND_STORAGE_KEY, backgroundFromUpload, RejectedUpload, storeBackgroundChoice, storedBackgroundChoice } from './virtual-backgrounds';

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

describe('virtual backgrounds', () => {
  it('keeps the effect and the picture per browser, and ignores what it cannot read', () => {
    const storage = memoryStorage();
    expect(storedBackgroundChoice(storage)).toEqual({});
    storeBackgroundChoice(storage, { effect: 'virtual', backgroundImage: '/backgrounds/shelf.jpg' });
    expect(storedBackgroundChoice(storage)).toEqual({ effect: 'virtual', backgroundImage: '/backgrounds/shelf.jpg' });
    expect(storedBackgroundChoice(memoryStorage({ [BACKGROUND_STORAGE_KEY]: '{"effect":"sparkles"}' }))).toEqual({});
    expect(storedBackgroundChoice(memoryStorage({ [BACKGROUND_STORAGE_KEY]: 'not json' }))).toEqual({});
  });

  it('says so when the storage is full, and goes on', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const full = { setItem: () => { throw new DOMException('full', 'QuotaExceededError'); } };
    expect(() => storeBackgroundChoice(full, { effect: 'light', backgroundImage: null })).not.toThrow();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('takes only JPG/JPEG or PNG uploads of at most 5 MB', async () => {
    const gif = new File(['GIF89a'], 'party.gif', { type: 'image/gif' });
    await expect(backgroundFromUpload(gif)).rejects.toBeInstanceOf(RejectedUpload);
    const large = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'large.png', { type: 'image/png' });
    await expect(backgroundFromUpload(large)).rejects.toBeInstanceOf(RejectedUpload);
  });
});
