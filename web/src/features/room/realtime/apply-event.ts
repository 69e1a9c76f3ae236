import type { AttendeeSummary, ChatState, Event, Snapshot, StateForAll, StateForGuides, VolatileEvent } from '@/protocol/generated';
import { withoutKey } from '../utils/without-key';
import { openWithSlide, pollClosed, pollCounts, pollCreated, pollOpened, pollResultsShown, pollVoted } from './apply-polls';
import { questionAsked, questionDismissed, questionMarked, questionVoted, questionVotes } from './apply-questions';

function withAll(snapshot: Snapshot, patch: Partial<StateForAll>): Snapshot {
  return { ...snapshot, stateForAll: { ...snapshot.stateForAll, ...patch } };
}

/** Messages the hub keeps in a snapshot (`CHAT_HISTORY` in `protocol/src/engagement.rs`). */
export const CHAT_HISTORY = 100;

function withChat(snapshot: Snapshot, update: (chat: ChatState) => ChatState): Snapshot {
  return withAll(snapshot, { chat: update(snapshot.stateForAll.chat) });
}

function withGuides(snapshot: Snapshot, update: (guides: StateForGuides) => StateForGuides): Snapshot {
  return snapshot.stateForGuides ? { ...snapshot, stateForGuides: update(snapshot.stateForGuides) } : snapshot;
}

/**
 * Files participants under `guides` when they are guides, else under `clients` or, once
 * their connection is lost, `inactiveClients` (as the hub's snapshot does). One copy of
 * each map for all of them, filled in place: a page of 500 after a guide's welcome in a
 * large room costs one copy of the room's maps, not one per participant.
 */
function placeAttendees(guides: StateForGuides, attendees: AttendeeSummary[]): StateForGuides {
  const clients = { ...guides.clients };
  const inactiveClients = { ...guides.inactiveClients };
  const guideMap = { ...guides.guides };
  for (const attendee of attendees) {
    const id = attendee.attendeeId;
    if (attendee.role === 'GUIDE') {
      guideMap[id] = attendee;
    } else if (attendee.connection === 'lost') {
      delete clients[id];
      inactiveClients[id] = attendee;
    } else {
      clients[id] = attendee;
      delete inactiveClients[id];
    }
  }
  return { ...guides, clients, inactiveClients, guides: guideMap };
}

function placeAttendee(guides: StateForGuides, attendee: AttendeeSummary): StateForGuides {
  return placeAttendees(guides, [attendee]);
}

/**
 * The state after a page of participants that follows a guide's welcome in a large room:
 * each goes where an `attendeeChanged` event would put it.
 */
export function applyParticipants(snapshot: Snapshot, participants: AttendeeSummary[]): Snapshot {
  return withGuides(snapshot, (guides) => placeAttendees(guides, participants));
}

/** The state after `event`. Pure: `snapshot` is left as it was. */
export function applyEvent(snapshot: Snapshot, event: Event): Snapshot {
  switch (event.kind) {
    case 'appointmentConfigured':
      return withAll(snapshot, { ...event.settings });
    case 'slideSwitched':
      return withAll(openWithSlide(snapshot, event.sectionId, event.slideAlias), {
        currentPageId: event.pageId,
        currentSectionId: event.sectionId,
        lastActiveGuideSection: event.sectionId,
        currentSlideAlias: event.slideAlias,
        currentSlideData: null,
      });
    case 'presentationStarted':
      return withAll(snapshot, { started: true, running: true, startedAt: event.startedAt });
    case 'presentationEnded':
      return withAll(snapshot, { running: false, ended: true, endedAt: event.endedAt });
    case 'lockChanged':
      return withAll(snapshot, { locked: event.locked });
    case 'guideProductChanged':
      return withAll(snapshot, { currentGuideProductId: event.productId });
    case 'dynamicPageOpened':
      return withAll(snapshot, { currentDynamicPage: event.page });
    case 'dynamicPageClosed': {
      const open = snapshot.stateForAll.currentDynamicPage;
      const closes = open !== null && (event.all || event.pageId === open.pageId);
      return closes ? withAll(snapshot, { currentDynamicPage: null }) : snapshot;
    }
    case 'broadcastModeChanged':
      return withAll(snapshot, { broadcastMode: event.active });
    case 'viewModeChanged':
      return withAll(snapshot, { viewMode: event.mode });
    case 'screenSharingChanged':
      return withAll(snapshot, { allowScreenSharing: event.active });
    case 'muteAllChanged':
      return withAll(snapshot, { mutedAll: event.muted });
    case 'attendeeChanged':
      return withGuides(snapshot, (guides) => placeAttendee(guides, event.attendee));
    case 'attendeeRemoved':
      return withGuides(snapshot, (guides) => ({
        ...guides,
        clients: withoutKey(guides.clients, event.attendeeId),
        inactiveClients: withoutKey(guides.inactiveClients, event.attendeeId),
        guides: withoutKey(guides.guides, event.attendeeId),
      }));
    case 'cartPermissionChanged':
      // An attendee is sent only its own permission changes; guides are sent everyone's.
      if (!snapshot.stateForGuides) {
        return { ...snapshot, stateForClients: { ...snapshot.stateForClients, cartPermission: event.permission } };
      }
      return withGuides(snapshot, (guides) => {
        // Whoever it names, a guide too (one guide may ask another), as the hub does.
        const attendee =
          guides.clients[event.attendeeId] ?? guides.inactiveClients[event.attendeeId] ?? guides.guides[event.attendeeId];
        return attendee ? placeAttendee(guides, { ...attendee, cartPermission: event.permission }) : guides;
      });
    case 'chatMessagePosted':
      return withChat(snapshot, (chat) => ({ ...chat, messages: [...chat.messages, event.message].slice(-CHAT_HISTORY) }));
    case 'chatMessagesPosted':
      // One batch of the hub's (what was posted within `CHAT_BATCH_MS`), oldest first.
      if (event.messages.length === 0) return snapshot;
      return withChat(snapshot, (chat) => ({ ...chat, messages: [...chat.messages, ...event.messages].slice(-CHAT_HISTORY) }));
    case 'chatMessageDeleted':
      return withChat(snapshot, (chat) => ({
        ...chat,
        messages: chat.messages.filter((m) => m.messageId !== event.messageId),
        pinned: chat.pinned?.messageId === event.messageId ? null : chat.pinned,
      }));
    case 'chatMessagePinned':
      return withChat(snapshot, (chat) => ({
        ...chat,
        pinned: chat.messages.find((m) => m.messageId === event.messageId) ?? null,
      }));
    case 'chatSettingsChanged':
      return withChat(snapshot, (chat) => ({ ...chat, settings: event.settings }));
    case 'chatBlockedWordsChanged':
      return withGuides(snapshot, (guides) => ({
        ...guides,
        chatModeration: { ...guides.chatModeration, blockedWords: event.words },
      }));
    case 'chatAttendeeModerated': {
      // An attendee is sent only its own; guides are sent everyone's.
      if (!snapshot.stateForGuides) {
        return {
          ...snapshot,
          stateForClients: { ...snapshot.stateForClients, chatMutedUntil: event.mutedUntil, chatBanned: event.banned },
        };
      }
      return withGuides(snapshot, (guides) => {
        const { mutedUntil, banned } = guides.chatModeration;
        const others = banned.filter((id) => id !== event.attendeeId);
        return {
          ...guides,
          chatModeration: {
            ...guides.chatModeration,
            mutedUntil:
              event.mutedUntil === null
                ? withoutKey(mutedUntil, event.attendeeId)
                : { ...mutedUntil, [event.attendeeId]: event.mutedUntil },
            banned: event.banned ? [...others, event.attendeeId].sort() : others,
          },
        };
      });
    }
    case 'pollCreated':
      return pollCreated(snapshot, event.poll);
    case 'pollOpened':
      return pollOpened(snapshot, event.pollId);
    case 'pollClosed':
      return pollClosed(snapshot, event.pollId, event.counts, event.voters);
    case 'pollResultsShown':
      return pollResultsShown(snapshot, event.pollId, event.shown);
    case 'pollVoted':
      return pollVoted(snapshot, event.pollId, event.answerIds, event.previousAnswerIds);
    case 'questionAsked':
      return questionAsked(snapshot, event.question);
    case 'questionVoted':
      return questionVoted(snapshot, event.questionId, event.voted);
    case 'questionMarked':
      return questionMarked(snapshot, event.questionId, event.status);
    case 'questionDismissed':
      return questionDismissed(snapshot, event.questionId);
    case 'reload':
    case 'attendeeCollectionChanged':
    case 'attendeeCartChanged':
    case 'sessionSampled':
    case 'savedProductsChanged':
      // Hints about data held outside the live state (the shop: carts, collections, the
      // guides' saved products), and the hub's samples for the session report; nothing to
      // change here.
      return snapshot;
  }
}

/** The state after a volatile (unsequenced) event. */
export function applyVolatile(snapshot: Snapshot, event: VolatileEvent): Snapshot {
  switch (event.kind) {
    case 'guideHovered':
      return {
        ...snapshot,
        stateForClients: { ...snapshot.stateForClients, hoveredElementId: event.hoveredElementId },
      };
    case 'reactions':
      // Sums of taps, shown as they come (the engagement store); the state has none.
      return snapshot;
    case 'pollCounts':
      return pollCounts(snapshot, event.pollId, event.counts, event.voters);
    case 'questionVotes':
      return questionVotes(snapshot, event.votes);
  }
}
