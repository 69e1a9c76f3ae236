import { describe, expect, it } from 'vitest';
import type { StateTransition } from '../api/client';
import { uniqueTransitions } from './transitions';

const step = (actionName: string, toStateName: string): StateTransition => ({ actionName, toStateName, fromStateName: 'open', name: toStateName, technicalName: toStateName });

describe('the transitions offered as buttons', () => {
  it('are one per target state, the action named like its target first, in the server’s order', () => {
    const offered = [step('pay', 'paid'), step('pay_partially', 'paid_partially'), step('paid', 'paid'), step('paid_partially', 'paid_partially'), step('cancel', 'cancelled'), step('do_pay', 'in_progress')];
    expect(uniqueTransitions(offered).map((transition) => transition.actionName)).toEqual(['paid', 'paid_partially', 'cancel', 'do_pay']);
  });

  it('keep the first of several actions none of which is named like the target', () => {
    expect(uniqueTransitions([step('ship', 'shipped'), step('send', 'shipped'), step('retour', 'returned')]).map((transition) => transition.actionName)).toEqual(['ship', 'retour']);
    expect(uniqueTransitions([])).toEqual([]);
  });
});
