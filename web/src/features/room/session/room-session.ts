import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Cart, createCartStore } from '@/lib/shop/cart';
import type { ConnectionState, Event, StateForAll, ViewMode } from '@/protocol/generated';
import { currentSlideOf, neighboursOf, slideAt, structureReloadOf, type Slide } from '../api/presentation';
import type { CollectionsApi } from '../attendee/api/collections';
import { createAttendeeRoomStore, type AttendeeRoomState } from '../attendee/stores/attendee-room';
import { createCollectionsStore, type CollectionsState } from '../attendee/stores/collections';
import { reloadsOf } from '../attendee/utils/reloads';
import type { InteractionTemplatesApi } from '../guide/api/interaction-templates';
import type { GuideCategory, GuideProduct, ListingLayout, SavedProductsApi, Widgets } from '../guide/api/room-admin';
import { cartToReload, createInsightsStore, type InsightsApi, type InsightsState } from '../guide/stores/insights';
import { createInstantListingStore, type InstantListingState, type ListingDraft } from '../guide/stores/instant-listing';
import { createInteractionTemplatesStore, type InteractionTemplatesState } from '../guide/stores/interaction-templates';
import { createSavedProductsStore, type SavedProductsState } from '../guide/stores/saved-products';
import { createWidgetsStore, type WidgetsState } from '../guide/stores/widgets';
import type { RealtimeClient, RoomState } from '../realtime/client';
import { createSlideCache, firstImageOf, slideKeyOf, type SlideCache, type SlideData, type SlideKey } from './slide-cache';

/*
 * The room session: one per participant and hub session, without React. It holds the
 * socket (through the realtime client), the slide cache and the presentation structure,
 * and sends each hub event to the stores it concerns (live state in the client's store,
 * collections, carts, insights, widgets). Components read the stores and call the
 * session's methods; they never send frames and never route events.
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

/** The guide's REST calls the session makes (bound to the guide's login and appointment). */
export interface GuideApi {
  insights: InsightsApi;
  widgets: Widgets;
  startAppointment(): Promise<void>;
  endAppointment(): Promise<void>;
  /** The whole catalogue by name or number; with `categoryId`, that category's products. */
  searchProducts(term: string, categoryId?: string): Promise<GuideProduct[]>;
  /** Products by id, in that order. */
  productsByIds(ids: string[]): Promise<GuideProduct[]>;
  categories(): Promise<GuideCategory[]>;
  savedProducts: SavedProductsApi;
  /** The appointment's interaction templates. */
  interactionTemplates: InteractionTemplatesApi;
  listingProducts(groupId: string): Promise<GuideProduct[]>;
  /** Creates an instant listing; answers the new slide's number. */
  createListing(listing: { productIds: string[]; pageName: string | null; currentPageGroupId: string | null; layout: ListingLayout }): Promise<number | undefined>;
  updateListing(listing: { groupId: string; productIds: string[]; pageName: string | null; layout: ListingLayout }): Promise<void>;
  /** Takes a published instant listing out of the presentation. */
  deleteListing(groupId: string): Promise<void>;
  /** Closes an attendee out of the room (the shop tells the hub, which tells everyone). */
  removeAttendee(attendeeId: string): Promise<void>;
}

/** How many slides the page `groupId` has. */
const slidesOf = (slides: Slide[], groupId: string) => slides.filter((slide) => slide.groupId === groupId).length;

/** The page and section an instant listing is made like: the presentation's listing template. */
export function listingLayoutOf(slides: Slide[]): ListingLayout | null {
  const template = slides.find((slide) => slide.isInstantListing);
  return template ? { pageId: template.cmsPageId, slideId: template.sectionId } : null;
}

/** The guide's side: slides, lifecycle and controls, the attendees' likes and carts, widgets, instant listings. */
export class GuideSession extends RoomSession {
  readonly insights: StoreApi<InsightsState>;
  readonly widgets: StoreApi<WidgetsState>;
  readonly listing: StoreApi<InstantListingState>;
  /** The guide's saved products of this appointment. */
  readonly saved: StoreApi<SavedProductsState>;
  /** The guide's interaction templates of this appointment. */
  readonly templates: StoreApi<InteractionTemplatesState>;
  /** The attendees removed during this session (the participants list leaves them out for good). */
  readonly removed: StoreApi<{ ids: string[] }>;
  private thumbnailRun = 0;

  constructor(
    client: RealtimeClient,
    presentation: PresentationApi,
    private readonly api: GuideApi,
    slides: Slide[] = [],
  ) {
    super(client, presentation, slides);
    this.insights = createInsightsStore(api.insights);
    this.widgets = createWidgetsStore(api.widgets);
    this.removed = createStore(() => ({ ids: [] as string[] }));
    this.saved = createSavedProductsStore(api.savedProducts, (ids) => api.productsByIds(ids));
    this.templates = createInteractionTemplatesStore(api.interactionTemplates);
    this.listing = createInstantListingStore({
      create: (draft) => this.createListing(draft),
      update: (draft) => this.updateListing(draft),
    });
  }

  override start(): void {
    const starting = !this.running;
    super.start();
    if (starting) this.preloadSlides(this.structure.getState().slides);
  }

  override stop(): void {
    this.thumbnailRun += 1;
    super.stop();
  }

  listingLayout(): ListingLayout | null {
    return listingLayoutOf(this.structure.getState().slides);
  }

  switchSlide(slide: Slide): Promise<unknown> {
    return this.client.sendAction({ key: 'switchSlide', payload: { pageId: slide.groupId, sectionId: slide.sectionId, slideAlias: slide.index } });
  }

  setLocked(locked: boolean): Promise<unknown> {
    return this.client.sendAction({ key: 'setLocked', payload: { locked } });
  }

  muteAll(muted: boolean): Promise<unknown> {
    return this.client.sendAction({ key: 'muteAll', payload: { muted } });
  }

  setViewMode(mode: ViewMode): Promise<unknown> {
    return this.client.sendInteraction({ name: 'viewMode.changed', payload: { mode } });
  }

  setBroadcast(active: boolean): Promise<unknown> {
    return this.client.sendInteraction({ name: 'broadcastMode.toggled', payload: { active } });
  }

  highlightProduct(productId: string): Promise<unknown> {
    return this.client.sendInteraction({ name: 'product.viewed', payload: { productId } });
  }

  openProductPage(productId: string): Promise<unknown> {
    return this.client.sendInteraction({ name: 'dynamicProductPage.opened', payload: { pageId: productId, type: 'productDetail', opened: true, productId } });
  }

  closePages(): Promise<unknown> {
    return this.client.sendInteraction({ name: 'dynamicPage.closed', payload: { pageId: null, all: true } });
  }

  requestCartPermission(attendeeId: string): Promise<unknown> {
    return this.client.sendAction({ key: 'requestCartPermission', payload: { attendeeId } });
  }

  startAppointment(): Promise<void> {
    return this.api.startAppointment();
  }

  endAppointment(): Promise<void> {
    return this.api.endAppointment();
  }

  removeAttendee(attendeeId: string): Promise<void> {
    return this.api.removeAttendee(attendeeId);
  }

  searchProducts(term: string, categoryId?: string): Promise<GuideProduct[]> {
    return this.api.searchProducts(term, categoryId);
  }

  /** These products (name, number, cover), in this order. */
  productsByIds(ids: string[]): Promise<GuideProduct[]> {
    return this.api.productsByIds(ids);
  }

  categories(): Promise<GuideCategory[]> {
    return this.api.categories();
  }

  /** Opens a new instant listing with these products (the saved ones, say). */
  startListingWith(name: string, products: GuideProduct[]): void {
    const listing = this.listing.getState();
    listing.startNew(name);
    for (const product of products) listing.add(product);
  }

  /** Publishes an instant listing of these products at once and shows it to everyone (an interaction template). */
  presentListing(name: string, productIds: string[]): Promise<void> {
    return this.createListing({ groupId: null, name, products: productIds.map((id) => ({ id, name: id, productNumber: '', coverUrl: null })) });
  }

  /** Posts `text` to the chat as the guide (an announcement template). */
  announce(text: string): Promise<unknown> {
    return this.client.sendAction({ key: 'sendChatMessage', payload: { text } });
  }

  /** Opens the editor with the products of the published listing `slide`. */
  async editListing(slide: Slide): Promise<void> {
    const products = await this.api.listingProducts(slide.groupId);
    this.listing.getState().edit(slide.groupId, slide.groupName, products);
  }

  /**
   * Deletes the published instant listing `slide`. Everyone on it is first moved to the
   * slide before it (or the one after), so no one is left on a slide that is gone.
   */
  async deleteListing(slide: Slide): Promise<void> {
    if (!slide.isInstantListing) throw new Error('only instant listings are deleted');
    const slides = this.structure.getState().slides;
    const current = this.currentSlide();
    if (current?.groupId === slide.groupId) {
      const others = slides.filter((other) => other.groupId !== slide.groupId);
      const before = others.filter((other) => other.index < slide.index).at(-1);
      const target = before ?? others[0];
      if (target) await this.switchSlide({ ...target, index: before ? target.index : target.index - slidesOf(slides, slide.groupId) });
    }
    await this.api.deleteListing(slide.groupId);
    if (this.listing.getState().draft?.groupId === slide.groupId) this.listing.getState().close();
    await this.reloadStructure();
  }

  protected override handle(event: Event): void {
    const insights = this.insights.getState();
    insights.applyEvent(event);
    // The hub may announce a removed attendee's closed socket after the removal: they stay removed.
    if (event.kind === 'attendeeRemoved') this.removed.setState((state) => ({ ids: [...state.ids, event.attendeeId] }));
    this.widgets.getState().applyEvent(event);
    if (event.kind === 'cartPermissionChanged') {
      if (event.permission === 'granted') void insights.loadCollections(event.attendeeId);
      else insights.forgetCart(event.attendeeId);
    }
    // The shop's `attendeeCartChanged` (or a new grant) reloads that cart once.
    const reload = cartToReload(event, this.live.snapshot?.stateForGuides);
    if (reload) void insights.loadCart(reload);
    // Another guide of the appointment (or this one) changed the saved products: show the shop's list.
    if (event.kind === 'savedProductsChanged') {
      this.saved
        .getState()
        .load()
        .catch((error: unknown) => console.warn('could not reload the saved products', error));
    }
    super.handle(event);
  }

  /** The likes so far and the carts the guide may see. */
  protected override welcomed(): void {
    const guides = this.live.snapshot?.stateForGuides;
    const attendees = guides ? [...Object.values(guides.clients), ...Object.values(guides.inactiveClients)] : [];
    const insights = this.insights.getState();
    const ids = attendees.flatMap((attendee) => (attendee ? [attendee.attendeeId] : []));
    void insights.loadLikes(ids);
    void insights.loadInvitations();
    for (const attendee of attendees) {
      if (attendee?.cartPermission !== 'granted') continue;
      void insights.loadCart(attendee.attendeeId);
      void insights.loadCollections(attendee.attendeeId);
    }
  }

  /** Nothing to do: the guide's views read the live state from the store. */
  protected override liveStateChanged(): void {}

  protected override structureChanged(slides: Slide[]): void {
    this.preloadSlides(slides);
  }

  /** Every slide loads in the background, one after the other: the thumbnails, and switches show at once. */
  private preloadSlides(slides: Slide[]): void {
    const run = ++this.thumbnailRun;
    void (async () => {
      for (const slide of slides) {
        if (run !== this.thumbnailRun) return;
        const key = { pageId: slide.groupId, sectionId: slide.sectionId };
        try {
          const data = await this.slideCache.load(key);
          if (run === this.thumbnailRun) {
            this.structure.setState((state) => ({ thumbnails: { ...state.thumbnails, [slideKeyOf(key)]: firstImageOf(data) ?? null } }));
          }
        } catch {
          // The slide shows its own error when it is switched to.
        }
      }
    })();
  }

  /** Publishes a new listing after the current page, then shows its slide once the structure has it. */
  private async createListing(draft: ListingDraft): Promise<void> {
    const layout = this.listingLayout();
    if (!layout) throw new Error('no listing layout');
    const index = await this.api.createListing({
      productIds: draft.products.map((product) => product.id),
      pageName: draft.name.trim() || null,
      currentPageGroupId: this.currentSlide()?.groupId ?? null,
      layout,
    });
    const slides = await this.reloadStructure();
    const target = index ? slideAt(slides, index) : undefined;
    if (target?.isInstantListing) await this.switchSlide(target).catch((error: unknown) => console.warn('could not show the new listing', error));
  }

  private async updateListing(draft: ListingDraft & { groupId: string }): Promise<void> {
    const layout = this.listingLayout();
    if (!layout) throw new Error('no listing layout');
    await this.api.updateListing({
      groupId: draft.groupId,
      productIds: draft.products.map((product) => product.id),
      pageName: draft.name.trim() || null,
      layout,
    });
  }
}

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
export class AttendeeSession extends RoomSession {
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
    this.answers = createAttendeeRoomStore(client);
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
