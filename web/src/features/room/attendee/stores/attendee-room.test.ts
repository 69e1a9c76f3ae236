import { describe, expect, it, vi } from 'vitest';
import { makeSnapshot } from '@/testing/snapshot';
import { attendeeScreen } from '../utils/room-screen';
import { createAttendeeRoomStore } from './attendee-room';

describe('attendeeScreen (the waiting-room switch)', () => {
  it('waits until the guide starts, then shows the room, then the end', () => {
    expect(attendeeScreen(null)).toBe('loading');
    expect(attendeeScreen(makeSnapshot())).toBe('waiting');
    expect(attendeeScreen(makeSnapshot({ started: true, running: true }))).toBe('live');
    expect(attendeeScreen(makeSnapshot({ started: true, running: false, ended: true }))).toBe('ended');
  });

  it('shows the end even to someone who never saw the start', () => {
    expect(attendeeScreen(makeSnapshot({ ended: true }))).toBe('ended');
  });
});

describe('attendee room store', () => {
  it('answers the cart-permission request', async () => {
    const setCartPermission = vi.fn().mockResolvedValue(3);
    const store = createAttendeeRoomStore(setCartPermission);
    const sent = store.getState().answerCartRequest(true);
    expect(store.getState().answer).toBe('sending');
    await sent;
    expect(setCartPermission).toHaveBeenCalledWith(true);
    expect(store.getState().answer).toBe('idle');
    await store.getState().answerCartRequest(false);
    expect(setCartPermission).toHaveBeenLastCalledWith(false);
  });

  it('says when the answer could not be sent', async () => {
    const store = createAttendeeRoomStore(vi.fn().mockRejectedValue(new Error('down')));
    await store.getState().answerCartRequest(true);
    expect(store.getState().answer).toBe('failed');
  });

  it('sends the join-time grant once, and again after a failure', async () => {
    const setCartPermission = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValue(1);
    const store = createAttendeeRoomStore(setCartPermission);
    await expect(store.getState().sendJoinGrant()).rejects.toThrow();
    await store.getState().sendJoinGrant();
    await store.getState().sendJoinGrant();
    expect(setCartPermission).toHaveBeenCalledTimes(2);
    expect(setCartPermission).toHaveBeenLastCalledWith(true);
  });
});
