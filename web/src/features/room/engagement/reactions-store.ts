import { createStore } from 'zustand/vanilla';
import type { Reaction, ReactionCounts } from '@/protocol/generated';

/*
 * Reactions as the room shows them: the hub sends sums of everyone's taps once per room
 * tick — every 250 ms in a small room, up to every second in a large one (protocol
 * `engagement_tick_ms`); each sum becomes a few floating reactions (never one per tap:
 * 10,000 taps must not become 10,000 elements) and adds to the running totals. Nothing
 * here depends on the tick's length: a large room shows fewer floaters a second.
 */

export const REACTIONS: Reaction[] = ['heart', 'clap', 'laugh', 'wow', 'fire'];
export const REACTION_EMOJI: Record<Reaction, string> = { heart: '❤️', clap: '👏', laugh: '😂', wow: '😮', fire: '🔥' };
/** Floating reactions one sum adds per kind, at most. */
export const MAX_FLOATERS_PER_SUM = 5;
/** Floating reactions on screen at most. */
export const MAX_FLOATERS = 40;

export interface Floater {
  id: number;
  reaction: Reaction;
  /** Horizontal position, 0–100 (%). */
  x: number;
}

export interface ReactionsState {
  floaters: Floater[];
  totals: ReactionCounts;
  /** Adds one sum from the hub. */
  add(counts: ReactionCounts, random?: () => number): Floater[];
  /** Removes a floater whose animation ended. */
  expire(id: number): void;
}

const zero: ReactionCounts = { heart: 0, clap: 0, laugh: 0, wow: 0, fire: 0 };

export function createReactionsStore() {
  let next = 1;
  return createStore<ReactionsState>((set, get) => ({
    floaters: [],
    totals: zero,
    add(counts, random = Math.random) {
      const added: Floater[] = [];
      for (const reaction of REACTIONS) {
        const n = Math.min(counts[reaction], MAX_FLOATERS_PER_SUM);
        for (let i = 0; i < n; i++) added.push({ id: next++, reaction, x: Math.round(random() * 100) });
      }
      const { totals, floaters } = get();
      const summed = Object.fromEntries(REACTIONS.map((r) => [r, totals[r] + counts[r]])) as ReactionCounts;
      set({ totals: summed, floaters: [...floaters, ...added].slice(-MAX_FLOATERS) });
      return added;
    },
    expire(id) {
      set((state) => ({ floaters: state.floaters.filter((f) => f.id !== id) }));
    },
  }));
}
