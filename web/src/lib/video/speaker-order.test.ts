import type { Participant } from 'livekit-client';
import { describe, expect, it } from 'vitest';
import { isGuide, speakerFirst } from './speaker-order';

function participant(identity: string, isLocal: boolean, metadata?: string): Participant {
  return { identity, isLocal, metadata } as Participant;
}

describe('speakerFirst', () => {
  const me = participant('me', true, '{"role":"client"}');
  const other = participant('other', false, '{"role":"client"}');
  const guide = participant('guide', false, '{"role":"guide"}');

  it('puts the remote guide in front of an attendee, whatever the join order', () => {
    expect(speakerFirst([me, other, guide]).map((p) => p.identity)).toEqual(['guide', 'me', 'other']);
  });

  it('puts the guide themself in front on the guide’s own screen', () => {
    const self = participant('self', true, '{"role":"guide"}');
    expect(speakerFirst([self, other]).map((p) => p.identity)).toEqual(['self', 'other']);
  });

  it('lets the first remote lead when no guide is in the room, and keeps a lone participant', () => {
    expect(speakerFirst([me, other]).map((p) => p.identity)).toEqual(['other', 'me']);
    expect(speakerFirst([me]).map((p) => p.identity)).toEqual(['me']);
    expect(speakerFirst([])).toEqual([]);
  });

  it('reads no role from missing or malformed metadata', () => {
    expect(isGuide(participant('a', false))).toBe(false);
    expect(isGuide(participant('a', false, 'not json'))).toBe(false);
    expect(isGuide(participant('a', false, '"guide"'))).toBe(false);
    expect(isGuide(participant('a', false, 'null'))).toBe(false);
  });
});
