import { describe, expect, it } from 'vitest';
import { applyEvent } from '../../realtime/apply-event';
import { makeAttendee, makeSnapshot } from '@/testing/snapshot';
import { createCockpitStore, participantsOf, participantStatistics, VIEW_MODE_OF, viewControlOf } from './cockpit';

const A = 'a'.repeat(32);
const B = 'b'.repeat(32);
const C = 'c'.repeat(32);

describe('cockpit store', () => {
  it('toggles the sidebars and remembers a failure, per room', () => {
    const one = createCockpitStore();
    const two = createCockpitStore();
    one.getState().toggleLeft();
    one.getState().setFailed(true);
    expect(one.getState()).toMatchObject({ leftSidebar: false, rightSidebar: true, failed: true });
    expect(two.getState()).toMatchObject({ leftSidebar: true, failed: false });
  });

  it('starts with the sidebars closed where there is no room for them', () => {
    expect(createCockpitStore(false).getState()).toMatchObject({ leftSidebar: false, rightSidebar: false });
  });

  it('maps the view controls to view modes and back', () => {
    for (const control of ['conference', 'speech', 'content'] as const) {
      expect(viewControlOf(VIEW_MODE_OF[control])).toBe(control);
    }
  });
});

describe('participants', () => {
  const guides = makeSnapshot({}, {
    clients: {
      [A]: makeAttendee(A, { attendeeName: 'Zoe', cartPermission: 'granted' }),
      [B]: makeAttendee(B, { attendeeName: 'Bob', cartPermission: 'requested' }),
    },
    inactiveClients: { [C]: makeAttendee(C, { attendeeName: 'Al', connection: 'lost', status: 'inactive' }) },
    guides: { ['d'.repeat(32)]: makeAttendee('d'.repeat(32), { role: 'GUIDE' }) },
  }).stateForGuides;

  it('lists connected attendees first, by name', () => {
    expect(participantsOf(guides).map((attendee) => attendee.attendeeName)).toEqual(['Bob', 'Zoe', 'Al']);
    expect(participantsOf(undefined)).toEqual([]);
  });

  it('counts for the statistics modal', () => {
    expect(participantStatistics(guides)).toEqual({ total: 3, online: 2, offline: 1, granted: 1, requested: 1, guides: 1 });
  });

  it('follows cart permission changes from the hub', () => {
    const snapshot = makeSnapshot({}, { clients: { [A]: makeAttendee(A) } });
    const requested = applyEvent(snapshot, { kind: 'cartPermissionChanged', attendeeId: A, permission: 'requested' });
    expect(participantStatistics(requested.stateForGuides).requested).toBe(1);
    const granted = applyEvent(requested, { kind: 'cartPermissionChanged', attendeeId: A, permission: 'granted' });
    expect(participantsOf(granted.stateForGuides)[0]?.cartPermission).toBe('granted');
  });
});
