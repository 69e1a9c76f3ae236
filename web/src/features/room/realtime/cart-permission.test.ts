import { describe, expect, it } from 'vitest';
import type { Event } from '@/protocol/generated';
import { nextCartPermission } from './cart-permission';

const ME = 'a'.repeat(32);
const OTHER = 'b'.repeat(32);
const changed = (attendeeId: string, permission: 'missing' | 'requested' | 'granted' | 'refused'): Event => ({
  kind: 'cartPermissionChanged',
  attendeeId,
  permission,
});

describe('nextCartPermission', () => {
  it('goes from missing to requested to granted for the attendee concerned', () => {
    let permission = nextCartPermission('missing', changed(ME, 'requested'), ME);
    expect(permission).toBe('requested');
    permission = nextCartPermission(permission, changed(ME, 'granted'), ME);
    expect(permission).toBe('granted');
  });

  it('becomes refused when the attendee says no or takes a grant back', () => {
    expect(nextCartPermission('requested', changed(ME, 'refused'), ME)).toBe('refused');
    expect(nextCartPermission('granted', changed(ME, 'refused'), ME)).toBe('refused');
  });

  it('ignores other attendees, other events and an unknown own id', () => {
    expect(nextCartPermission('missing', changed(OTHER, 'requested'), ME)).toBe('missing');
    expect(nextCartPermission('granted', { kind: 'lockChanged', locked: true }, ME)).toBe('granted');
    expect(nextCartPermission('missing', changed(ME, 'requested'), null)).toBe('missing');
  });
});
