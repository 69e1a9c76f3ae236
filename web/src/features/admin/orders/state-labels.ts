import { useTranslation } from 'react-i18next';
import type { MachineState, StateMachineEntity, StateTransition } from '../api/client';

/** Which texts of `admin.orders.states` a machine's states are in. */
const GROUP: Record<StateMachineEntity, 'order' | 'payment' | 'delivery'> = { order: 'order', order_transaction: 'payment', order_delivery: 'delivery' };

/**
 * The names of states and transitions in the page's language: the backoffice's own text
 * of a technical name, else the name the server sent, else the technical name.
 */
export function useStateLabels() {
  const { t } = useTranslation();
  const states = t('admin.orders.states', { returnObjects: true }) as unknown as Record<string, Record<string, string>>;
  const actions = t('admin.orders.actions', { returnObjects: true }) as unknown as Record<string, string>;
  const machineActions = t('admin.orders.machineActions', { returnObjects: true }) as unknown as Record<string, Record<string, string>>;
  return {
    state(machine: StateMachineEntity, state: MachineState | string | null | undefined): string {
      if (!state) return '—';
      const technical = typeof state === 'string' ? state : state.technicalName;
      const own = states[GROUP[machine]]?.[technical];
      if (own) return own;
      return typeof state === 'string' ? state : (state.translated?.name ?? state.name ?? technical);
    },
    action(machine: StateMachineEntity, transition: Pick<StateTransition, 'actionName' | 'name'>): string {
      return machineActions[GROUP[machine]]?.[transition.actionName] ?? actions[transition.actionName] ?? transition.name ?? transition.actionName;
    },
  };
}
