import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ConnectionState, Event, ReactionCounts, Reaction, Role, StateForAll } from '@/protocol/generated';
import { currentSlideOf, structureReloadOf, type Slide } from '../api/presentation';
import type { RealtimeClient, RoomState } from '../realtime/client';
import { createSlideCache, type SlideCache, type SlideData, type SlideKey } from './slide-cache';

/*
 * The room session: one per participant and hub session, without React. It holds the
 * socket (through the realtime client), the slide cache and the presentation structure,
 * and sends each hub event to the stores it concerns (live state in the client's store,
 * collections, carts, insights, widgets). Components read the stores and call the
 * session's methods; they never send frames and never route events.
 *
 * This module knows no side: `RoomSession` is what both share (the socket's lifetime, the
 * structure, chat and reactions). Each side's session extends it beside its side,
 * `guide/session/guide-session.ts` and `attendee/session/attendee-session.ts`, with one
 * named method per command it sends (as excalidraw's `Portal`).
 */

/** The presentation's structure and slides over REST. */
export interface PresentationApi {
  slides(): Promise<Slide[]>;
  slide(key: SlideKey): Promise<SlideData>;
}

export interface StructureState {
  /** The slides in order; empty until the structure is loaded. */
  slides: Slide[];
  /** The first image of each loaded slide by slide key (null: the slide has none); the guide's thumbnails. */
  thumbnails: Record<string, string | null>;
}

const isUp = (connection: ConnectionState) => connection === 'connected' || connection === 'reconnected';

/** What both sides of the room share: the socket's lifetime, the structure and the slides, structure reloads. */
export abstract class RoomSession {
  readonly structure: StoreApi<StructureState>;
  readonly slideCache: SlideCache;
  private subscriptions: (() => void)[] = [];
  private structureRequest = 0;
  private structureLoad: Promise<Slide[]> | null = null;

  /** Who this session speaks for: the engagement panel shows each its own controls. */
  abstract readonly role: Role;

  constructor(
    readonly client: RealtimeClient,
    protected readonly presentation: PresentationApi,
    slides: Slide[] = [],
  ) {
    this.structure = createStore<StructureState>(() => ({ slides, thumbnails: {} }));
    this.slideCache = createSlideCache((key) => presentation.slide(key));
  }

  /** The live state as the client has it now. */
  get live(): RoomState {
    return this.client.store.getState();
  }

  /** The live state's store, for components to read with `useStore`. */
  get liveStore(): StoreApi<RoomState> {
    return this.client.store;
  }

  get running(): boolean {
    return this.subscriptions.length > 0;
  }

  /** Connects (or takes over a socket that is up already) and starts following the hub. */
  start(): void {
    if (this.running) return;
    this.subscriptions.push(
      this.client.onEvent((event) => this.handle(event)),
      this.client.store.subscribe((state, previous) => {
        if (state.connection !== previous.connection && isUp(state.connection)) this.welcomed(state.connection === 'reconnected');
        const all = state.snapshot?.stateForAll;
        if (all && all !== previous.snapshot?.stateForAll) this.liveStateChanged(all, previous.snapshot?.stateForAll);
      }),
    );
    this.client.start();
    if (isUp(this.live.connection)) this.welcomed(false);
  }

  /** Disconnects and stops following the hub. */
  stop(): void {
    for (const unsubscribe of this.subscriptions.splice(0)) unsubscribe();
    this.client.stop();
  }

  /** The slide everyone is on, from the live state and the structure. */
  currentSlide(): Slide | undefined {
    const all = this.live.snapshot?.stateForAll;
    return all ? currentSlideOf(this.structure.getState().slides, all) : undefined;
  }

  /** Loads the structure again; concurrent reloads settle with the newest. A failure keeps the known slides. */
  reloadStructure(): Promise<Slide[]> {
    const request = ++this.structureRequest;
    const load = this.presentation.slides().then(
      (slides) => {
        if (request !== this.structureRequest) return this.structureLoad ?? slides;
        this.structure.setState({ slides });
        this.structureChanged(slides);
        return slides;
      },
      (error: unknown) => {
        console.warn('could not load the presentation structure', error);
        return this.structure.getState().slides;
      },
    );
    this.structureLoad = load;
    return load;
  }

  /** Posts `text` to the chat; rejects with the hub's refusal (`code`). */
  sendChatMessage(text: string): Promise<unknown> {
    return this.client.sendAction({ key: 'sendChatMessage', payload: { text } });
  }

  /** One tap on a reaction; the hub sends everyone's sums per tick (`onReactions`). */
  react(reaction: Reaction): Promise<unknown> {
    return this.client.sendAction({ key: 'sendReaction', payload: { reaction } });
  }

  /** The hub's reaction sums (volatile: a missed one is not sent again). Returns the unsubscribe. */
  onReactions(listener: (counts: ReactionCounts) => void): () => void {
    return this.client.onVolatile((event) => {
      if (event.kind === 'reactions') listener(event.counts);
    });
  }

  /** One hub event, after the client applied it to the live state. */
  protected handle(event: Event): void {
    // A new or changed instant listing: the structure (and that page's slides) again.
    const structure = structureReloadOf(event);
    if (structure) {
      if (structure.pageId) this.slideCache.forget(structure.pageId);
      void this.reloadStructure();
    }
  }

  /** After each welcome of the hub (the first, or after a reconnect which may have skipped events). */
  protected abstract welcomed(reconnected: boolean): void;

  /** After the live state for everyone changed (`before`: the one it replaced). */
  protected abstract liveStateChanged(all: StateForAll, before: StateForAll | undefined): void;

  /** After a (re)load of the presentation structure. */
  protected abstract structureChanged(slides: Slide[]): void;
}
