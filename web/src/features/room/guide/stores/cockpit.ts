import { createStore } from 'zustand/vanilla';
import type { AttendeeSummary, StateForGuides, ViewMode } from '@/protocol/generated';

/** The guide's view controls and what attendees are shown for each. */
export type ViewControl = 'conference' | 'speech' | 'content';

export const VIEW_MODE_OF: Record<ViewControl, ViewMode> = {
  conference: 'videoGrid',
  speech: 'onlyYou',
  content: 'presentation',
};

export function viewControlOf(mode: ViewMode): ViewControl {
  return mode === 'videoGrid' ? 'conference' : mode === 'onlyYou' ? 'speech' : 'content';
}

export interface CockpitState {
  leftSidebar: boolean;
  rightSidebar: boolean;
  /** An action the guide sent that the hub refused or that did not reach it. */
  failed: boolean;
  toggleLeft(): void;
  toggleRight(): void;
  setFailed(failed: boolean): void;
}

/** The cockpit's own UI state, one store per room; sidebars start open when there is room for them. */
export function createCockpitStore(sidebarsOpen = true) {
  return createStore<CockpitState>()((set) => ({
    leftSidebar: sidebarsOpen,
    rightSidebar: sidebarsOpen,
    failed: false,
    toggleLeft: () => set((state) => ({ leftSidebar: !state.leftSidebar })),
    toggleRight: () => set((state) => ({ rightSidebar: !state.rightSidebar })),
    setFailed: (failed) => set({ failed }),
  }));
}

/**
 * The attendees of the participants list: the connected ones first, then by name. Those
 * the guide removed stay out, even when the hub announces their socket closing afterwards.
 */
export function participantsOf(guides: StateForGuides | undefined, removed: readonly string[] = []): AttendeeSummary[] {
  if (!guides) return [];
  const all = [...Object.values(guides.clients), ...Object.values(guides.inactiveClients)].filter(
    (attendee): attendee is AttendeeSummary => attendee !== undefined && !removed.includes(attendee.attendeeId),
  );
  const online = (attendee: AttendeeSummary) => (attendee.connection === 'lost' ? 1 : 0);
  return all.sort(
    (a, b) => online(a) - online(b) || (a.attendeeName ?? '').localeCompare(b.attendeeName ?? '') || a.attendeeId.localeCompare(b.attendeeId),
  );
}

export interface ParticipantStatistics {
  total: number;
  online: number;
  offline: number;
  granted: number;
  requested: number;
  guides: number;
}

/** The counts of the statistics modal. */
export function participantStatistics(guides: StateForGuides | undefined, removed: readonly string[] = []): ParticipantStatistics {
  const attendees = participantsOf(guides, removed);
  const offline = attendees.filter((attendee) => attendee.connection === 'lost').length;
  return {
    total: attendees.length,
    online: attendees.length - offline,
    offline,
    granted: attendees.filter((attendee) => attendee.cartPermission === 'granted').length,
    requested: attendees.filter((attendee) => attendee.cartPermission === 'requested').length,
    guides: guides ? Object.keys(guides.guides).length : 0,
  };
}
