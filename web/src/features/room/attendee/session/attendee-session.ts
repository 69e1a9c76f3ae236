import type { StoreApi } from 'zustand/vanilla';
import type { Cart, createCartStore } from '@/lib/shop/cart';
import type { Event, StateForAll } from '@/protocol/generated';
import { neighboursOf } from '../../api/presentation';
import type { AttendeeEngagement } from '../../engagement/engagement-session';
import type { RealtimeClient } from '../../realtime/client';
import { RoomSession, type PresentationApi } from '../../session/room-session';
import type { CollectionsApi } from '../api/collections';
import { createAttendeeRoomStore, type AttendeeRoomState } from '../stores/attendee-room';
import { createCollectionsStore, type CollectionsState } from '../stores/collections';
import { reloadsOf } from '../utils/reloads';

type CartStore = ReturnType<typeof createCartStore>;

/** What an attendee's session needs besides the socket and the presentation. */
export interface AttendeeApi {
  collections: CollectionsApi;
  /** The shop cart of this browser session (the attendee's own cart). */
  cart: CartStore;
  /** Whether the attendee chose at join to grant cart access, still to be sent; taking it clears it. */
  takeCartGrant(): boolean;
}

/** The shop's summary of a cart (`attendeeCartChanged`), to compare with the cart at hand. */
interface CartSummary {
  lineItemCount: number;
  totalPrice: number;
}

function cartMatches(cart: Cart | null, summary: CartSummary): boolean {
  if (!cart) return false;
  const lines = (cart.lineItems ?? []).filter((item) => item.type === 'product').length;
  return lines === summary.lineItemCount && Math.abs((cart.price?.totalPrice ?? 0) - summary.totalPrice) < 0.005;
}

/** The attendee's side: the join-time cart grant, likes and last seen, the own cart, the slides around the current one. */
export class AttendeeSession extends RoomSession implements AttendeeEngagement {
  readonly role = 'CLIENT' as const;
  readonly collections: StoreApi<CollectionsState>;
  /** The answers to the guide (cart permission). */
  readonly answers: StoreApi<AttendeeRoomState>;
  private inRoom = 0;
  private cartRequests = 0;
  /** A change the shop told while the attendee's own cart requests ran: checked when they are done. */
  private toldWhileBusy: CartSummary | null = null;

  constructor(
    client: RealtimeClient,
    presentation: PresentationApi,
    private readonly api: AttendeeApi,
  ) {
    super(client, presentation);
    this.collections = createCollectionsStore(api.collections);
    this.answers = createAttendeeRoomStore((granted) => this.setCartPermission(granted));
  }

  /**
   * While the room (not the waiting room) shows: its collections, cart and structure load
   * now and again after every reconnect. Returns the leave.
   */
  enterRoom(): () => void {
    this.inRoom += 1;
    if (this.inRoom === 1) {
      this.loadRoom();
      const highlighted = this.live.snapshot?.stateForAll.currentGuideProductId;
      if (highlighted) this.viewed(highlighted);
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.inRoom -= 1;
    };
  }

  /** Adds to the attendee's cart; rejects with the shop's message when it refused. */
  async addToCart(productId: string, quantity: number): Promise<void> {
    const cart = this.api.cart.getState();
    await this.ownCartRequest(() => cart.addProduct(productId, quantity));
    const refused = cart.consumeErrors().find((error) => error.level >= 20);
    if (refused) throw new Error(refused.message || refused.key);
  }

  changeCartLine(lineItemId: string, quantity: number): Promise<unknown> {
    return this.ownCartRequest(() => this.api.cart.getState().changeQuantity(lineItemId, quantity));
  }

  removeCartLine(lineItemId: string): Promise<unknown> {
    return this.ownCartRequest(() => this.api.cart.getState().remove(lineItemId));
  }

  /** The attendee's answer on the guide's cart access (also the join-time grant). */
  setCartPermission(granted: boolean): Promise<unknown> {
    return this.client.sendAction({ key: 'setCartPermission', payload: { granted } });
  }

  // Polls and questions (the engagement panel's commands).

  votePoll(pollId: string, answerIds: string[]): Promise<unknown> {
    return this.client.sendAction({ key: 'votePoll', payload: { pollId, answerIds } });
  }

  askQuestion(text: string): Promise<unknown> {
    return this.client.sendAction({ key: 'askQuestion', payload: { text } });
  }

  voteQuestion(questionId: string, voted: boolean): Promise<unknown> {
    return this.client.sendAction({ key: 'voteQuestion', payload: { questionId, voted } });
  }

  /** Records a product the attendee looked at (it goes to the top of last seen). */
  viewed(productId: string): void {
    void this.collections.getState().viewed(productId);
  }

  protected override handle(event: Event): void {
    const own = this.live.attendeeId;
    this.collections.getState().applyEvent(event, own);
    // The guide's (or an older client's) reload hints about this attendee.
    const reloads = reloadsOf(event, own);
    if (reloads.cart) this.refreshCart();
    if (reloads.collections) void this.collections.getState().load();
    // The shop's word on this attendee's cart (a change in another tab, or by the guide): reload only what differs.
    if (event.kind === 'attendeeCartChanged' && event.attendeeId === own) this.cartToldOf(event);
    super.handle(event);
  }

  protected override welcomed(reconnected: boolean): void {
    if (this.api.takeCartGrant()) this.answers.getState().sendJoinGrant().catch((error: unknown) => console.warn(error));
    if (reconnected && this.inRoom > 0) this.loadRoom();
  }

  protected override liveStateChanged(all: StateForAll, before: StateForAll | undefined): void {
    if (this.inRoom === 0) return;
    // What the guide shows counts as seen.
    if (all.currentGuideProductId && all.currentGuideProductId !== before?.currentGuideProductId && this.live.attendeeId) {
      this.viewed(all.currentGuideProductId);
    }
    if (all.currentSlideAlias !== before?.currentSlideAlias || all.currentSectionId !== before?.currentSectionId) this.preloadNeighbours();
  }

  protected override structureChanged(): void {
    if (this.inRoom > 0) this.preloadNeighbours();
  }

  private loadRoom(): void {
    void this.collections.getState().load();
    this.refreshCart();
    void this.reloadStructure();
  }

  private refreshCart(): void {
    this.api.cart
      .getState()
      .refresh()
      .catch(() => undefined);
  }

  /** The slides around the current one load ahead, so the next switch shows at once. */
  private preloadNeighbours(): void {
    const current = this.currentSlide();
    if (!current) return;
    for (const slide of neighboursOf(this.structure.getState().slides, current.index)) {
      this.slideCache.load({ pageId: slide.groupId, sectionId: slide.sectionId }).catch(() => undefined);
    }
  }

  private cartToldOf(summary: CartSummary): void {
    if (this.cartRequests > 0) {
      this.toldWhileBusy = { lineItemCount: summary.lineItemCount, totalPrice: summary.totalPrice };
      return;
    }
    if (!cartMatches(this.api.cart.getState().cart, summary)) this.refreshCart();
  }

  private async ownCartRequest<T>(request: () => Promise<T>): Promise<T> {
    this.cartRequests += 1;
    try {
      return await request();
    } finally {
      this.cartRequests -= 1;
      const told = this.toldWhileBusy;
      if (this.cartRequests === 0 && told) {
        this.toldWhileBusy = null;
        this.cartToldOf(told);
      }
    }
  }
}
