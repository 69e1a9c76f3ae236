import { createStore } from 'zustand/vanilla';
import { rules, validate } from '@/lib/validation';

/** The longest name the shop stores for an attendee. */
export const ATTENDEE_NAME_MAX_LENGTH = 255;

export interface AttendeeNameState {
  /** The name the guide and the room know the attendee by. */
  name: string;
  status: 'idle' | 'saving' | 'failed';
  /** Checks and saves a new name; answers the validation message when it is not valid, else null. */
  rename(name: string): Promise<string | null>;
}

export interface AttendeeNameApi {
  /** Stores the name in the shop (which tells the guides). */
  save(name: string): Promise<void>;
  /** Keeps the saved name for this browser (the join of this tab, the guest-name cookie). */
  remember(name: string): void;
}

/** The check of a new name (spec section 5's texts): required, at most 255 characters. */
export function attendeeNameError(name: string): string | null {
  return validate(name.trim(), [rules.required(), rules.maxLength(ATTENDEE_NAME_MAX_LENGTH)]);
}

/** The attendee's own name in the room, which they can change. */
export function createAttendeeNameStore(initial: string, api: AttendeeNameApi) {
  return createStore<AttendeeNameState>()((set, get) => ({
    name: initial,
    status: 'idle',
    async rename(input) {
      const problem = attendeeNameError(input);
      if (problem) return problem;
      const name = input.trim();
      if (name === get().name) return null;
      set({ status: 'saving' });
      try {
        await api.save(name);
      } catch (error) {
        set({ status: 'failed' });
        throw error;
      }
      api.remember(name);
      set({ name, status: 'idle' });
      return null;
    },
  }));
}
