import type { AttendeeSummary, Snapshot, StateForAll, StateForGuides } from '@/protocol/generated';

/** The live state of a fresh appointment, with `all` merged into `stateForAll`. */
export function makeSnapshot(all: Partial<StateForAll> = {}, guides?: Partial<StateForGuides>): Snapshot {
  return {
    stateForAll: {
      currentGuideProductId: null,
      lastActiveGuideSection: null,
      currentPageId: null,
      currentSectionId: null,
      currentSlideAlias: 0,
      currentSlideData: null,
      currentDynamicPage: null,
      started: false,
      running: false,
      ended: false,
      startedAt: null,
      endedAt: null,
      accessibleFrom: null,
      accessibleTo: null,
      appointmentMode: 'guided',
      videoAudioSettings: 'none',
      videoRoomUrl: '',
      attendeeRestrictionType: 'open',
      productDetailDefaultPageId: null,
      quickviewPageId: null,
      productListingDefaultPageId: null,
      broadcastMode: false,
      viewMode: 'presentation',
      allowScreenSharing: false,
      locked: false,
      mutedAll: false,
      chat: { messages: [], pinned: null, settings: { closed: false, slowModeSeconds: 0, linksAllowed: false } },
      polls: [],
      questions: [],
      extensions: [],
      ...all,
    },
    stateForClients: {
      videoClientToken: null,
      hoveredElementId: null,
      cartPermission: 'missing',
      chatMutedUntil: null,
      chatBanned: false,
      pollVotes: {},
      questionVotes: [],
      extensions: [],
    },
    ...(guides && {
      stateForGuides: {
        clients: {},
        inactiveClients: {},
        guides: {},
        videoGuideToken: null,
        quickViewState: [],
        chatModeration: { blockedWords: [], mutedUntil: {}, banned: [] },
        extensions: [],
        ...guides,
      },
    }),
  };
}

export function makeAttendee(attendeeId: string, fields: Partial<AttendeeSummary> = {}): AttendeeSummary {
  return {
    attendeeId,
    role: 'CLIENT',
    attendeeName: 'Ada',
    videoUserId: null,
    hasJoined: true,
    status: 'joined',
    connection: 'connected',
    cartPermission: 'missing',
    lastActiveAt: null,
    ...fields,
  };
}
