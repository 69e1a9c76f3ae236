import { beforeAll, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { initI18n, loadLocaleTexts } from '@/lib/i18n';
import { ATTENDEE_NAME_MAX_LENGTH, createAttendeeNameStore } from './attendee-name';

describe('attendee name', () => {
  beforeAll(() => initI18n('en-US'));

  it('saves a new name in the shop, then keeps it for this browser', async () => {
    const save = vi.fn().mockResolvedValue(undefined);
    const remember = vi.fn();
    const store = createAttendeeNameStore('Ada', { save, remember });
    await expect(store.getState().rename('  Ada Lovelace ')).resolves.toBeNull();
    expect(save).toHaveBeenCalledWith('Ada Lovelace');
    expect(remember).toHaveBeenCalledWith('Ada Lovelace');
    expect(store.getState()).toMatchObject({ name: 'Ada Lovelace', status: 'idle' });
  });

  it('refuses an empty or too long name with the texts of the spec, in English and German', async () => {
    const save = vi.fn();
    const store = createAttendeeNameStore('Ada', { save, remember: vi.fn() });
    await expect(store.getState().rename('   ')).resolves.toBe('Input required');
    await expect(store.getState().rename('x'.repeat(ATTENDEE_NAME_MAX_LENGTH + 1))).resolves.toBe(
      `The maximum length allowed is ${ATTENDEE_NAME_MAX_LENGTH} characters.`,
    );
    await loadLocaleTexts('de-DE');
    await i18next.changeLanguage('de-DE');
    await expect(store.getState().rename('')).resolves.toBe(i18next.t('validation.required'));
    expect(i18next.t('validation.required')).not.toBe('Input required');
    await i18next.changeLanguage('en-US');
    expect(save).not.toHaveBeenCalled();
    expect(store.getState().name).toBe('Ada');
  });

  it('keeps the old name when the shop refuses the new one', async () => {
    const remember = vi.fn();
    const store = createAttendeeNameStore('Ada', { save: vi.fn().mockRejectedValue(new Error('down')), remember });
    await expect(store.getState().rename('Bea')).rejects.toThrow('down');
    expect(store.getState()).toMatchObject({ name: 'Ada', status: 'failed' });
    expect(remember).not.toHaveBeenCalled();
  });
});
