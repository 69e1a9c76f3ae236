// Generated from the Rust crate `protocol` (protocol/src/typescript.rs).
// Do not edit: run `make protocol-ts` after changing the Rust types.

export type JsonValue = number | string | boolean | Array<JsonValue> | { [key in string]?: JsonValue } | null;

export type Role = "GUIDE" | "CLIENT";

export type AttendeeStatus = "joined" | "invited" | "inactive" | "waitingList" | "requestedToJoin" | "notJoinedYet";

export type ConnectionState = "connecting" | "connected" | "reconnecting" | "reconnected" | "lost";

export type CartPermission = "missing" | "requested" | "granted" | "refused";

export type InvitationAnswer = "accepted" | "maybe" | "declined";

export type AppointmentMode = "guided" | "self";

export type VideoAudioSettings = "both" | "none" | "audio-only";

export type AttendeeRestrictionType = "open" | "customer" | "rules";

export type ViewMode = "onlyYou" | "presentation" | "videoGrid";

export type DynamicPage = { pageId: string, type: string, opened: boolean, position?: number, productId?: string, };

export type SlideData = { page: number, };

export type ChatMessage = { messageId: string, attendeeId: string, 
/**
 * The sender's name at the time (a guest's join name); `None` for a nameless one.
 */
attendeeName: string | null, role: Role, text: string, 
/**
 * Unix milliseconds, as the hub received it.
 */
sentAt: number, };

export type ChatSettings = { 
/**
 * Closed: only guides may post.
 */
closed: boolean, 
/**
 * One message per this many seconds per attendee; 0 is off.
 */
slowModeSeconds: number, 
/**
 * Whether attendees' clients make links clickable (guides' always do).
 */
linksAllowed: boolean, };

export type ChatState = { 
/**
 * The last [`CHAT_HISTORY`] messages, oldest first.
 */
messages: Array<ChatMessage>, pinned: ChatMessage | null, settings: ChatSettings, };

export type ChatModeration = { blockedWords: Array<string>, 
/**
 * Timed-out attendees: until when (unix milliseconds).
 */
mutedUntil: { [key in string]: number }, banned: Array<string>, };

export type Reaction = "heart" | "clap" | "laugh" | "wow" | "fire";

export type ReactionCounts = { heart: number, clap: number, laugh: number, wow: number, fire: number, };

export type PollStatus = "draft" | "open" | "closed";

export type PollSlide = { sectionId: string, slideAlias: number, };

export type PollAnswer = { answerId: string, text: string, };

export type Poll = { pollId: string, question: string, answers: Array<PollAnswer>, 
/**
 * Several answers may be chosen.
 */
multiple: boolean, slide: PollSlide | null, status: PollStatus, 
/**
 * Whether attendees are shown the counts.
 */
resultsShown: boolean, 
/**
 * Votes per answer, in the order of `answers`.
 */
counts: Array<number>, 
/**
 * Attendees who voted.
 */
voters: number, };

export type NewPoll = { question: string, answers: Array<string>, multiple: boolean, slide: PollSlide | null, };

export type SessionSample = { 
/**
 * When it was taken (RFC 3339, UTC, to the second).
 */
at: string, 
/**
 * The sampling interval it belongs to (milliseconds since 1970 divided by the
 * interval): a replica's sample for an interval already sampled is ignored.
 */
bucket: number, 
/**
 * Reaction taps since the previous sample.
 */
reactions: ReactionCounts, 
/**
 * The sum of the attendees' cart values when it was taken.
 */
cartValue: number, };

export type QuestionStatus = "open" | "answering" | "answered";

export type Question = { questionId: string, attendeeId: string, 
/**
 * The asker's name at the time (a guest's join name); `None` for a nameless one.
 */
attendeeName: string | null, role: Role, text: string, 
/**
 * Unix milliseconds, as the hub received it.
 */
askedAt: number, status: QuestionStatus, 
/**
 * Up-votes (the asker's own cannot be one).
 */
votes: number, };

export type StateForAll = { currentGuideProductId: string | null, lastActiveGuideSection: string | null, currentPageId: string | null, currentSectionId: string | null, currentSlideAlias: number, currentSlideData: SlideData | null, currentDynamicPage: DynamicPage | null, started: boolean, running: boolean, ended: boolean, 
/**
 * RFC 3339 timestamps.
 */
startedAt: string | null, endedAt: string | null, accessibleFrom: string | null, accessibleTo: string | null, appointmentMode: AppointmentMode, videoAudioSettings: VideoAudioSettings, videoRoomUrl: string, attendeeRestrictionType: AttendeeRestrictionType | null, productDetailDefaultPageId: string | null, quickviewPageId: string | null, productListingDefaultPageId: string | null, broadcastMode: boolean, viewMode: ViewMode, allowScreenSharing: boolean, 
/**
 * No one can join while the guide has locked the appointment.
 */
locked: boolean, 
/**
 * Set by the guide's mute-all; attendees' microphones are off while true.
 */
mutedAll: boolean, 
/**
 * The chat: its last messages, the pinned one, and its settings (issue #19).
 */
chat: ChatState, 
/**
 * The appointment's polls, oldest first (issue #19).
 */
polls: Array<Poll>, 
/**
 * The attendees' questions, oldest first (issue #19); dismissed ones are gone.
 */
questions: Array<Question>, extensions: Array<JsonValue>, };

export type StateForClients = { videoClientToken: string | null, hoveredElementId: string | null, 
/**
 * The attendee's own cart permission (each attendee sees only its own): `missing`
 * while the guide never asked, `refused` after a no. Not in the reference schema.
 */
cartPermission: CartPermission, 
/**
 * The attendee's own chat time-out (unix milliseconds), if the guide gave one.
 */
chatMutedUntil: number | null, 
/**
 * Whether the guide banned the attendee from the chat.
 */
chatBanned: boolean, 
/**
 * The attendee's own vote per poll id.
 */
pollVotes: { [key in string]: Array<string> }, 
/**
 * The ids of the questions the attendee up-voted.
 */
questionVotes: Array<string>, extensions: Array<JsonValue>, };

export type AttendeeSummary = { attendeeId: string, role: Role, attendeeName: string | null, videoUserId: string | null, hasJoined: boolean, status: AttendeeStatus, connection: ConnectionState, cartPermission: CartPermission, 
/**
 * RFC 3339 timestamp of the last frame received from this participant.
 */
lastActiveAt: string | null, };

export type StateForGuides = { clients: { [key in string]: AttendeeSummary }, inactiveClients: { [key in string]: AttendeeSummary }, guides: { [key in string]: AttendeeSummary }, videoGuideToken: string | null, quickViewState: Array<string>, 
/**
 * Blocked words, time-outs and bans of the chat.
 */
chatModeration: ChatModeration, extensions: Array<JsonValue>, };

export type Snapshot = { stateForAll: StateForAll, stateForClients: StateForClients, 
/**
 * Present for guides only.
 */
stateForGuides?: StateForGuides, };

export type Action = { "key": "switchSlide", "payload": { pageId: string, sectionId: string, slideAlias: number, } } | { "key": "loadSlide", "payload": { pageId: string, sectionId: string, } } | { "key": "loadProductList", "payload": Record<symbol, never> } | { "key": "loadListingProducts", "payload": { pageId: string, sectionId: string, } } | { "key": "updateListingProducts", "payload": { pageId: string, sectionId: string, productIds: Array<string>, } } | { "key": "loadCart", "payload": { attendeeId: string | null, } } | { "key": "addToCart", "payload": { attendeeId: string | null, productId: string, quantity: number, } } | { "key": "removeFromCart", "payload": { attendeeId: string | null, lineItemId: string, } } | { "key": "updateProductQuantity", "payload": { attendeeId: string | null, lineItemId: string, quantity: number, } } | { "key": "loadLikeList", "payload": { attendeeId: string | null, } } | { "key": "removeFromLikeList", "payload": { attendeeId: string | null, productId: string, } } | { "key": "loadLastSeen", "payload": { attendeeId: string | null, } } | { "key": "loadProductReviews", "payload": { productId: string, } } | { "key": "muteAll", "payload": { muted: boolean, } } | { "key": "setLocked", "payload": { locked: boolean, } } | { "key": "requestCartPermission", "payload": { attendeeId: string, } } | { "key": "setCartPermission", "payload": { granted: boolean, } } | { "key": "sendChatMessage", "payload": { text: string, } } | { "key": "deleteChatMessage", "payload": { messageId: string, } } | { "key": "pinChatMessage", "payload": { messageId: string | null, } } | { "key": "setChatSettings", "payload": { settings: ChatSettings, } } | { "key": "setChatBlockedWords", "payload": { words: Array<string>, } } | { "key": "moderateChatAttendee", "payload": { attendeeId: string, timeoutMinutes: number | null, banned: boolean, } } | { "key": "sendReaction", "payload": { reaction: Reaction, } } | { "key": "createPoll", "payload": { poll: NewPoll, } } | { "key": "openPoll", "payload": { pollId: string, } } | { "key": "closePoll", "payload": { pollId: string, } } | { "key": "showPollResults", "payload": { pollId: string, shown: boolean, } } | { "key": "votePoll", "payload": { pollId: string, answerIds: Array<string>, } } | { "key": "askQuestion", "payload": { text: string, } } | { "key": "voteQuestion", "payload": { questionId: string, voted: boolean, } } | { "key": "markQuestion", "payload": { questionId: string, status: QuestionStatus, } } | { "key": "dismissQuestion", "payload": { questionId: string, } };

export type Empty = Record<symbol, never>;

export type ProductPayload = { productId: string, };

export type DynamicPageClosedPayload = { pageId: string | null, all: boolean, };

export type PageViewedPayload = { pageId: string, sectionId: string, slideAlias: number, pageNumber: number | null, };

export type GuideHoveredPayload = { hoveredElementId: string | null, };

export type TogglePayload = { active: boolean, };

export type ViewModePayload = { mode: ViewMode, };

export type Interaction = { "name": "keep.alive", "payload": Empty } | { "name": "quickview.opened", "payload": Empty } | { "name": "quickview.closed", "payload": Empty } | { "name": "attendee.leave", "payload": Empty } | { "name": "remote.checkout.accepted", "payload": Empty } | { "name": "remote.checkout.denied", "payload": Empty } | { "name": "product.viewed", "payload": ProductPayload } | { "name": "attendee.product.collection.liked", "payload": ProductPayload } | { "name": "attendee.product.collection.disliked", "payload": ProductPayload } | { "name": "attendee.product.collection.removed", "payload": ProductPayload } | { "name": "dynamicPage.opened", "payload": DynamicPage } | { "name": "dynamicPage.closed", "payload": DynamicPageClosedPayload } | { "name": "dynamicProductPage.opened", "payload": DynamicPage } | { "name": "page.viewed", "payload": PageViewedPayload } | { "name": "guide.hovered", "payload": GuideHoveredPayload } | { "name": "broadcastMode.toggled", "payload": TogglePayload } | { "name": "viewMode.changed", "payload": ViewModePayload } | { "name": "screenSharing.toggled", "payload": TogglePayload };

export type InteractionName = "keep.alive" | "quickview.opened" | "quickview.closed" | "attendee.leave" | "remote.checkout.accepted" | "remote.checkout.denied" | "product.viewed" | "attendee.product.collection.liked" | "attendee.product.collection.disliked" | "attendee.product.collection.removed" | "dynamicPage.opened" | "dynamicPage.closed" | "dynamicProductPage.opened" | "page.viewed" | "guide.hovered" | "broadcastMode.toggled" | "viewMode.changed" | "screenSharing.toggled";

export type ClientFrame = { "type": "hello", lastSeq: number | null, 
/**
 * The `epoch` of the welcome that `lastSeq` belongs to. Sequence numbers are
 * only comparable within one epoch.
 */
epoch: string | null, } | { "type": "action", ref: number | null, action: Action, } | { "type": "interaction", ref: number | null, interaction: Interaction, } | { "type": "ping", nonce: number, } | { "type": "pong", nonce: number, };

export type Resume = "fresh" | "replayed" | "snapshot";

export type AppointmentSettings = { appointmentMode: AppointmentMode, videoAudioSettings: VideoAudioSettings, attendeeRestrictionType: AttendeeRestrictionType | null, accessibleFrom: string | null, accessibleTo: string | null, productDetailDefaultPageId: string | null, quickviewPageId: string | null, productListingDefaultPageId: string | null, };

export type Collection = "liked" | "disliked" | "lastSeen" | "wishlist";

export type Event = { "kind": "appointmentConfigured", settings: AppointmentSettings, } | { "kind": "slideSwitched", pageId: string, sectionId: string, slideAlias: number, } | { "kind": "presentationStarted", startedAt: string, } | { "kind": "presentationEnded", endedAt: string, } | { "kind": "lockChanged", locked: boolean, } | { "kind": "guideProductChanged", productId: string | null, } | { "kind": "dynamicPageOpened", page: DynamicPage, } | { "kind": "dynamicPageClosed", pageId: string | null, all: boolean, } | { "kind": "broadcastModeChanged", active: boolean, } | { "kind": "viewModeChanged", mode: ViewMode, } | { "kind": "screenSharingChanged", active: boolean, } | { "kind": "muteAllChanged", muted: boolean, } | { "kind": "attendeeChanged", attendee: AttendeeSummary, } | { "kind": "attendeeRemoved", attendeeId: string, } | { "kind": "cartPermissionChanged", attendeeId: string, permission: CartPermission, } | { "kind": "attendeeCollectionChanged", attendeeId: string, collection: Collection, productId: string, added: boolean, } | { "kind": "attendeeCartChanged", attendeeId: string, lineItemCount: number, totalPrice: number, } | { "kind": "sessionSampled", sample: SessionSample, } | { "kind": "savedProductsChanged", } | { "kind": "reload", action: Action, } | { "kind": "chatMessagePosted", message: ChatMessage, } | { "kind": "chatMessagesPosted", messages: Array<ChatMessage>, } | { "kind": "chatMessageDeleted", messageId: string, } | { "kind": "chatMessagePinned", messageId: string | null, } | { "kind": "chatSettingsChanged", settings: ChatSettings, } | { "kind": "chatBlockedWordsChanged", words: Array<string>, } | { "kind": "chatAttendeeModerated", attendeeId: string, mutedUntil: number | null, banned: boolean, } | { "kind": "pollCreated", poll: Poll, } | { "kind": "pollOpened", pollId: string, } | { "kind": "pollClosed", pollId: string, counts: Array<number>, voters: number, } | { "kind": "pollResultsShown", pollId: string, shown: boolean, } | { "kind": "pollVoted", pollId: string, attendeeId: string, answerIds: Array<string>, previousAnswerIds: Array<string>, } | { "kind": "questionAsked", question: Question, } | { "kind": "questionVoted", questionId: string, attendeeId: string, voted: boolean, } | { "kind": "questionMarked", questionId: string, status: QuestionStatus, } | { "kind": "questionDismissed", questionId: string, };

export type VolatileEvent = { "kind": "guideHovered", hoveredElementId: string | null, } | { "kind": "reactions", counts: ReactionCounts, } | { "kind": "pollCounts", pollId: string, counts: Array<number>, voters: number, } | { "kind": "questionVotes", votes: { [key in string]: number }, };

export type ErrorCode = "BAD_FRAME" | "UNEXPECTED_FRAME" | "FORBIDDEN" | "INVALID_PAYLOAD" | "PRESENTATION_ENDED" | "INTERNAL" | "RATE_LIMITED" | "CHAT_EMPTY" | "CHAT_TOO_LONG" | "CHAT_MUTED" | "CHAT_BANNED" | "CHAT_CLOSED" | "CHAT_BLOCKED_WORD" | "CHAT_SLOW_MODE" | "CHAT_RATE_LIMITED" | "POLL_NOT_FOUND" | "POLL_CLOSED" | "POLL_UNKNOWN_ANSWER" | "POLL_SINGLE_CHOICE" | "POLL_LIMIT" | "QUESTION_EMPTY" | "QUESTION_TOO_LONG" | "QUESTION_RATE_LIMITED" | "QUESTION_BANNED" | "QUESTION_NOT_FOUND" | "QUESTION_OWN_VOTE" | "QUESTION_LIMIT";

export type ServerFrame = { "type": "welcome", appointmentId: string, attendeeId: string, role: Role, 
/**
 * The sequence number of the newest event included in this welcome (directly or
 * through the replay that follows it).
 */
seq: number, 
/**
 * Identifies the hub's event history of this appointment; it changes only when
 * that history was lost, and then no resume across it is possible.
 */
epoch: string, resume: Resume, snapshot?: Snapshot, 
/**
 * Milliseconds between the hub's pings.
 */
heartbeatMs: number, 
/**
 * In a large room a guide's snapshot holds only the first participants; this
 * many `participants` frames with the others follow the welcome, before any
 * event. Absent when nothing follows.
 */
participantPages?: number, } | { "type": "participants", page: number, pages: number, participants: Array<AttendeeSummary>, } | { "type": "event", seq: number, prev: number, event: Event, } | { "type": "volatile", event: VolatileEvent, } | { "type": "ack", ref: number, seq: number | null, } | { "type": "error", ref: number | null, code: ErrorCode, message: string, } | { "type": "videoToken", url: string, token: string, canPublish: boolean, } | { "type": "ping", nonce: number, } | { "type": "pong", nonce: number, };

export const SUBPROTOCOL_JSON = "salesroom.v1.json";
export const SUBPROTOCOL_MSGPACK = "salesroom.v1.msgpack";
export const TOKEN_SUBPROTOCOL_PREFIX = "bearer.";

export const CloseCode = {
  NO_HELLO: 4000,
  HEARTBEAT_TIMEOUT: 4001,
  SLOW_CONSUMER: 4008,
  REPLACED: 4009,
  REMOVED: 4010,
  LOCKED: 4011,
  RESYNC: 4012,
  DRAINING: 4013,
  GOING_AWAY: 1001,
  MESSAGE_TOO_BIG: 1009,
} as const;
