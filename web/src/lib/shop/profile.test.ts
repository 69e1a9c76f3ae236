import { describe, expect, it } from 'vitest';
import { isSubscribed, needsConfirmation } from './profile';

describe('newsletter status', () => {
  it('is subscribed unless optOut or undefined, and needs the confirmation when notSet', () => {
    expect(['optIn', 'direct', 'notSet'].map(isSubscribed)).toEqual([true, true, true]);
    expect(['optOut', 'undefined', null, undefined].map(isSubscribed)).toEqual([false, false, false, false]);
    expect(needsConfirmation('notSet')).toBe(true);
    expect(needsConfirmation('optIn')).toBe(false);
  });
});
