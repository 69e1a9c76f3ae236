import { createStore } from 'zustand/vanilla';

export type AnswerState = 'idle' | 'sending' | 'failed';

export interface AttendeeRoomState {
  /** The answer to the guide's cart-permission request being sent. */
  answer: AnswerState;
  /** Whether a join-time grant has been sent on this connection. */
  grantSent: boolean;
  answerCartRequest(granted: boolean): Promise<void>;
  /** Sends the join-time grant once, after the socket is up. */
  sendJoinGrant(): Promise<void>;
}

/** The attendee's room: answers to the guide, sent by `setCartPermission` (the session's). One per room. */
export function createAttendeeRoomStore(setCartPermission: (granted: boolean) => Promise<unknown>) {
  return createStore<AttendeeRoomState>()((set, get) => ({
    answer: 'idle',
    grantSent: false,
    async answerCartRequest(granted) {
      set({ answer: 'sending' });
      try {
        await setCartPermission(granted);
        set({ answer: 'idle' });
      } catch {
        set({ answer: 'failed' });
      }
    },
    async sendJoinGrant() {
      if (get().grantSent) return;
      set({ grantSent: true });
      try {
        await setCartPermission(true);
      } catch {
        set({ grantSent: false });
        throw new Error('the join-time cart grant was not sent');
      }
    },
  }));
}
