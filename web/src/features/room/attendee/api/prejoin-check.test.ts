import { describe, expect, it } from 'vitest';
import { prejoinProblem, type BasicSetting } from './prejoin-check';

const open: BasicSetting = { mode: 'guided', attendeeRestrictionType: 'open', ended: false, accessible: true };

describe('prejoinProblem', () => {
  it('asks for a name when anyone may join now', () => {
    expect(prejoinProblem(open, false)).toBeNull();
    expect(prejoinProblem({ mode: 'self' }, false)).toBeNull();
  });

  it('says ended, or not accessible now, before anything else', () => {
    expect(prejoinProblem({ ...open, ended: true, attendeeRestrictionType: 'customer' }, false)).toBe('ended');
    expect(prejoinProblem({ ...open, accessible: false }, true)).toBe('notAccessible');
  });

  it('sends a visitor who is not logged in to the customers-only screen, and lets a customer in', () => {
    expect(prejoinProblem({ ...open, attendeeRestrictionType: 'customer' }, false)).toBe('restricted');
    expect(prejoinProblem({ ...open, attendeeRestrictionType: 'customer' }, true)).toBeNull();
  });
});
