import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  CloseCode,
  SUBPROTOCOL_JSON,
  TOKEN_SUBPROTOCOL_PREFIX,
  type Action,
  type CartPermission,
  type ClientFrame,
  type ConnectionState,
  type ErrorCode,
  type Event as LiveEvent,
  type Interaction,
  type Role,
  type ServerFrame,
  type Snapshot,
  type VolatileEvent,
} from '@/protocol/generated';
import type { HubSession, VideoGrant } from '@/lib/hub';
import { applyEvent, applyParticipants, applyVolatile } from './apply-event';
import { nextCartPermission } from './cart-permission';


/** What a participant sees of its room. */
export interface RoomState {
  connection: ConnectionState;
  role: Role | null;
  attendeeId: string | null;
  /** The live state; null until the first welcome. */
  snapshot: Snapshot | null;
  /** The latest video grant; null while the hub sent none (no LiveKit configured). */
  video: VideoGrant | null;
  /**
   * This participant's own cart permission: from the welcome's snapshot
   * (`stateForClients.cartPermission`), then from the events: `requested` while the guide
   * waits for an answer, `refused` after a no, `missing` while never asked.
   */
  cartPermission: CartPermission;
  /** Why the hub closed this session for good: the guide removed the participant, or another tab took over. */
  closedFor: 'removed' | 'replaced' | 'locked' | null;
}

/** The part of the browser's WebSocket the client uses, so tests can pass a fake. */
export interface SocketLike {
  onopen: ((event: Event) => void) | null;
  onmessage: ((message: MessageEvent) => void) | null;
  onclose: ((close: CloseEvent) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** Opens a socket offering `protocols`: the codec's subprotocol, then the hub token as `bearer.<token>`. */
export type SocketFactory = (url: string, protocols: string[]) => SocketLike;

export type { HubSession, VideoGrant };

export interface RealtimeOptions {
  createSocket?: SocketFactory;
  /** Source of backoff jitter in [0, 1). */
  random?: () => number;
}

export class RealtimeError extends Error {
  constructor(
    readonly code: ErrorCode | 'DISCONNECTED',
    message: string,
  ) {
    super(message);
    this.name = 'RealtimeError';
  }
}

const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 5_000;
/** Consecutive attempts without a welcome after which the connection counts as lost. */
const LOST_AFTER_FAILURES = 5;
/** How long a new socket may take to open and be welcomed. */
const WELCOME_TIMEOUT_MS = 10_000;
/** Close codes after which reconnecting would only fight another session. */
// LOCKED: the hub turns away a newcomer while the guide keeps the room locked; trying
// again would only be turned away again.
const FINAL_CLOSE_CODES: readonly number[] = [CloseCode.REPLACED, CloseCode.REMOVED, CloseCode.LOCKED];
/**
 * After 4013 (DRAINING: the hub is stopping and another replica takes over) the client
 * reconnects at once, without backing off, within a random part of this spread so that
 * a replica's clients do not all arrive in the same instant.
 */
const DRAINING_SPREAD_MS = 500;

interface PendingAction {
  resolve: (seq: number | null) => void;
  reject: (error: RealtimeError) => void;
}

const browserSocket: SocketFactory = (url, protocols) => new WebSocket(url, protocols);

/**
 * Owns one participant's connection to the hub: hello/welcome, in-order event
 * application with duplicate suppression and resume after gaps, heartbeats, actions
 * and reconnecting with backoff. The UI reads `store` and calls `sendAction`; it never
 * sees a frame.
 */
export class RealtimeClient {
  readonly store: StoreApi<RoomState>;

  private readonly url: string;
  private readonly protocols: string[];
  private readonly createSocket: SocketFactory;
  private readonly random: () => number;

  private socket: SocketLike | null = null;
  private running = false;
  private welcomed = false;
  private everWelcomed = false;
  private failures = 0;
  private lastSeq: number | null = null;
  private epoch: string | null = null;
  private lastHeard = 0;
  private nextRef = 1;
  private nextNonce = 1;
  private readonly pending = new Map<number, PendingAction>();
  private readonly volatileListeners = new Set<(event: VolatileEvent) => void>();
  private readonly eventListeners = new Set<(event: LiveEvent) => void>();
  /** Acknowledged actions whose event has not been applied yet. */
  private awaitingSeq: { seq: number; action: PendingAction }[] = [];
  private welcomeTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(hub: HubSession, options: RealtimeOptions = {}) {
    // The token rides the handshake as a subprotocol, never the URL (which proxies log).
    this.url = hub.url;
    this.protocols = [SUBPROTOCOL_JSON, `${TOKEN_SUBPROTOCOL_PREFIX}${hub.token}`];
    this.createSocket = options.createSocket ?? browserSocket;
    this.random = options.random ?? Math.random;
    this.store = createStore<RoomState>(() => ({
      connection: 'connecting',
      role: null,
      attendeeId: null,
      snapshot: null,
      video: null,
      cartPermission: 'missing',
      closedFor: null,
    }));
  }

  /** Connects; may be called again after `stop`. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.open();
  }

  /** Disconnects for good and fails what is still waiting for the hub. */
  stop(): void {
    this.running = false;
    clearTimeout(this.retryTimer);
    this.teardown();
    const error = new RealtimeError('DISCONNECTED', 'the client was stopped');
    for (const { action } of this.awaitingSeq) action.reject(error);
    this.awaitingSeq = [];
  }

  /**
   * Sends an action. Resolves with the sequence number of its event once that event has
   * been applied to `store` (null when the action made no event); rejects with the
   * hub's error, or `DISCONNECTED` when the connection is not up or drops first.
   */
  sendAction(action: Action): Promise<number | null> {
    return this.request((ref) => ({ type: 'action', ref, action }));
  }

  /**
   * Sends an interaction (a product viewed, a view mode changed, …); settles like
   * `sendAction`. Volatile ones (`guide.hovered`) resolve with null on the ack.
   */
  sendInteraction(interaction: Interaction): Promise<number | null> {
    return this.request((ref) => ({ type: 'interaction', ref, interaction }));
  }

  /**
   * Calls `listener` with every event after it has been applied to `store`, once each
   * and in order (hints like a collection or cart change carry data the live state does
   * not keep). Returns the unsubscribe.
   */
  onEvent(listener: (event: LiveEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Calls `listener` with every volatile event (reaction sums, hovers). Returns the unsubscribe. */
  onVolatile(listener: (event: VolatileEvent) => void): () => void {
    this.volatileListeners.add(listener);
    return () => this.volatileListeners.delete(listener);
  }

  private request(frame: (ref: number) => ClientFrame): Promise<number | null> {
    if (!this.welcomed) {
      return Promise.reject(new RealtimeError('DISCONNECTED', 'not connected to the hub'));
    }
    const ref = this.nextRef++;
    return new Promise((resolve, reject) => {
      this.pending.set(ref, { resolve, reject });
      this.send(frame(ref));
    });
  }

  private open(): void {
    const socket = this.createSocket(this.url, this.protocols);
    this.socket = socket;
    socket.onopen = () => this.send({ type: 'hello', lastSeq: this.lastSeq, epoch: this.epoch });
    socket.onmessage = ({ data }) => {
      if (typeof data !== 'string') return;
      this.lastHeard = Date.now();
      this.receive(JSON.parse(data) as ServerFrame);
    };
    socket.onclose = ({ code }) => {
      if (code === CloseCode.REMOVED) this.store.setState({ closedFor: 'removed' });
      if (code === CloseCode.REPLACED) this.store.setState({ closedFor: 'replaced' });
      if (code === CloseCode.LOCKED) this.store.setState({ closedFor: 'locked' });
      if (code === CloseCode.DRAINING && this.welcomed) this.reconnectSoon();
      else this.reconnect(FINAL_CLOSE_CODES.includes(code));
    };
    this.welcomeTimer = setTimeout(() => this.reconnect(), WELCOME_TIMEOUT_MS);
  }

  private send(frame: ClientFrame): void {
    this.socket?.send(JSON.stringify(frame));
  }

  private receive(frame: ServerFrame): void {
    switch (frame.type) {
      case 'welcome': {
        clearTimeout(this.welcomeTimer);
        this.welcomed = true;
        this.failures = 0;
        this.epoch = frame.epoch;
        if (frame.snapshot) {
          this.lastSeq = frame.seq;
          this.store.setState({ snapshot: frame.snapshot });
          if (frame.role === 'CLIENT') this.store.setState({ cartPermission: frame.snapshot.stateForClients.cartPermission });
          // The snapshot includes the effect of every acknowledged action.
          for (const { seq, action } of this.awaitingSeq) action.resolve(seq);
          this.awaitingSeq = [];
        }
        this.store.setState({
          connection: this.everWelcomed ? 'reconnected' : 'connected',
          role: frame.role,
          attendeeId: frame.attendeeId,
        });
        this.everWelcomed = true;
        this.startHeartbeat(frame.heartbeatMs);
        return;
      }
      case 'event': {
        const { snapshot } = this.store.getState();
        if (!snapshot || this.lastSeq === null || frame.seq <= this.lastSeq) return;
        if (frame.prev !== this.lastSeq) {
          // Something between our last event and this one is missing: resume.
          this.reconnect();
          return;
        }
        this.lastSeq = frame.seq;
        const { cartPermission, attendeeId } = this.store.getState();
        this.store.setState({
          snapshot: applyEvent(snapshot, frame.event),
          cartPermission: nextCartPermission(cartPermission, frame.event, attendeeId),
        });
        this.resolveApplied(frame.seq);
        for (const listener of this.eventListeners) {
          try {
            listener(frame.event);
          } catch (error) {
            console.warn('an event listener failed', error);
          }
        }
        return;
      }
      case 'participants': {
        // The rest of a large room's participants, right after the welcome and before any
        // event, so they belong to the welcome's snapshot.
        const { snapshot } = this.store.getState();
        if (snapshot) this.store.setState({ snapshot: applyParticipants(snapshot, frame.participants) });
        return;
      }
      case 'volatile': {
        const { snapshot } = this.store.getState();
        if (snapshot) this.store.setState({ snapshot: applyVolatile(snapshot, frame.event) });
        for (const listener of this.volatileListeners) listener(frame.event);
        return;
      }
      case 'ack': {
        const action = this.takePending(frame.ref);
        if (!action) return;
        const { seq } = frame;
        if (seq === null || (this.lastSeq !== null && this.lastSeq >= seq)) action.resolve(seq);
        else this.awaitingSeq.push({ seq, action });
        return;
      }
      case 'error': {
        const action = this.takePending(frame.ref);
        if (action) action.reject(new RealtimeError(frame.code, frame.message));
        else console.warn(`hub error ${frame.code}: ${frame.message}`);
        return;
      }
      case 'videoToken':
        this.store.setState({ video: { url: frame.url, token: frame.token, canPublish: frame.canPublish } });
        return;
      case 'ping':
        this.send({ type: 'pong', nonce: frame.nonce });
        return;
      case 'pong':
        return;
    }
  }

  private takePending(ref: number | null): PendingAction | undefined {
    if (ref === null) return undefined;
    const action = this.pending.get(ref);
    this.pending.delete(ref);
    return action;
  }

  private resolveApplied(lastSeq: number): void {
    const applied = this.awaitingSeq.filter(({ seq }) => seq <= lastSeq);
    if (applied.length === 0) return;
    this.awaitingSeq = this.awaitingSeq.filter(({ seq }) => seq > lastSeq);
    for (const { seq, action } of applied) action.resolve(seq);
  }

  /** Pings every `heartbeatMs`; a hub silent for twice that long is taken for dead. */
  private startHeartbeat(heartbeatMs: number): void {
    clearInterval(this.heartbeatTimer);
    this.lastHeard = Date.now();
    this.heartbeatTimer = setInterval(() => {
      if (Date.now() - this.lastHeard >= 2 * heartbeatMs) this.reconnect();
      else this.send({ type: 'ping', nonce: this.nextNonce++ });
    }, heartbeatMs);
  }

  /** Closes the current socket, if any, without hearing from it again. */
  private teardown(): void {
    clearTimeout(this.welcomeTimer);
    clearInterval(this.heartbeatTimer);
    const socket = this.socket;
    this.socket = null;
    this.welcomed = false;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onclose = null;
      socket.close(1000);
    }
    const error = new RealtimeError('DISCONNECTED', 'the connection to the hub dropped');
    for (const action of this.pending.values()) action.reject(error);
    this.pending.clear();
  }

  /** The hub is draining: resume at once (through the load balancer, on another replica). */
  private reconnectSoon(): void {
    this.teardown();
    if (!this.running) return;
    this.store.setState({ connection: 'reconnecting' });
    this.retryTimer = setTimeout(() => this.open(), this.random() * DRAINING_SPREAD_MS);
  }

  /**
   * Drops the current socket and, unless `final`, opens a new one that resumes from
   * `lastSeq` after a jittered exponential backoff.
   */
  private reconnect(final = false): void {
    if (!this.welcomed) this.failures += 1;
    this.teardown();
    if (!this.running) return;
    if (final || this.failures >= LOST_AFTER_FAILURES) {
      this.store.setState({ connection: 'lost' });
    } else {
      this.store.setState({ connection: this.everWelcomed ? 'reconnecting' : 'connecting' });
    }
    if (final) {
      this.running = false;
      return;
    }
    // Equal jitter: between half and all of the exponential step.
    const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, this.failures - 1));
    this.retryTimer = setTimeout(() => this.open(), step / 2 + (this.random() * step) / 2);
  }
}
