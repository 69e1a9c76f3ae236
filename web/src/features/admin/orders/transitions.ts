import type { StateTransition } from '../api/client';

/**
 * One button per state to go to: Shopware's machines offer several actions to the same
 * state (`pay` and `paid` both lead to paid; `pay` is the older name). The action named
 * like its target wins, else the first; the order is the server's.
 */
export function uniqueTransitions(transitions: StateTransition[]): StateTransition[] {
  const chosen = new Map<string, StateTransition>();
  for (const transition of transitions) {
    const current = chosen.get(transition.toStateName);
    if (!current || (current.actionName !== current.toStateName && transition.actionName === transition.toStateName)) {
      chosen.set(transition.toStateName, transition);
    }
  }
  return transitions.filter((transition) => chosen.get(transition.toStateName) === transition);
}
