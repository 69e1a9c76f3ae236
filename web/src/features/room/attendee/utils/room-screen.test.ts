import { describe, expect, it } from 'vitest';
import { makeSnapshot } from '@/testing/snapshot';
import { attendeeScreen } from './room-screen';

describe('attendeeScreen', () => {
  it('waits for the guide of a guided appointment, and shows the room once started', () => {
    expect(attendeeScreen(null)).toBe('loading');
    expect(attendeeScreen(makeSnapshot({ started: false }))).toBe('waiting');
    expect(attendeeScreen(makeSnapshot({ started: true }))).toBe('live');
  });

  it('opens a self-service appointment without a guide, until it ends', () => {
    expect(attendeeScreen(makeSnapshot({ started: false }), 'self')).toBe('live');
    expect(attendeeScreen(makeSnapshot({ started: false, ended: true }), 'self')).toBe('ended');
  });
});
