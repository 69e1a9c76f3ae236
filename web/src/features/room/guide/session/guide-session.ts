import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ChatSettings, Event, NewPoll, QuestionStatus, ViewMode } from '@/protocol/generated';
import { slideAt, type Slide } from '../../api/presentation';
import type { GuideEngagement } from '../../engagement/engagement-session';
import type { RealtimeClient } from '../../realtime/client';
import { RoomSession, type PresentationApi } from '../../session/room-session';
import { firstImageOf, slideKeyOf } from '../../session/slide-cache';
import type { InteractionTemplatesApi } from '../api/interaction-templates';
import type { GuideCategory, GuideProduct, ListingLayout, SavedProductsApi, Widgets } from '../api/room-admin';
import { cartToReload, createInsightsStore, type InsightsApi, type InsightsState } from '../stores/insights';
import { createInstantListingStore, type InstantListingState, type ListingDraft } from '../stores/instant-listing';
import { createInteractionTemplatesStore, type InteractionTemplatesState } from '../stores/interaction-templates';
import { createSavedProductsStore, type SavedProductsState } from '../stores/saved-products';
import { createWidgetsStore, type WidgetsState } from '../stores/widgets';

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
export class GuideSession extends RoomSession implements GuideEngagement {
  readonly role = 'GUIDE' as const;
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
    return this.sendChatMessage(text);
  }

  // The chat's moderation, the polls and the questions (the engagement panel's commands).

  deleteChatMessage(messageId: string): Promise<unknown> {
    return this.client.sendAction({ key: 'deleteChatMessage', payload: { messageId } });
  }

  pinChatMessage(messageId: string | null): Promise<unknown> {
    return this.client.sendAction({ key: 'pinChatMessage', payload: { messageId } });
  }

  timeOutChatAttendee(attendeeId: string, minutes: number): Promise<unknown> {
    return this.client.sendAction({ key: 'moderateChatAttendee', payload: { attendeeId, timeoutMinutes: minutes, banned: false } });
  }

  banChatAttendee(attendeeId: string): Promise<unknown> {
    return this.client.sendAction({ key: 'moderateChatAttendee', payload: { attendeeId, timeoutMinutes: null, banned: true } });
  }

  setChatSettings(settings: ChatSettings): Promise<unknown> {
    return this.client.sendAction({ key: 'setChatSettings', payload: { settings } });
  }

  setChatBlockedWords(words: string[]): Promise<unknown> {
    return this.client.sendAction({ key: 'setChatBlockedWords', payload: { words } });
  }

  createPoll(poll: NewPoll): Promise<unknown> {
    return this.client.sendAction({ key: 'createPoll', payload: { poll } });
  }

  openPoll(pollId: string): Promise<unknown> {
    return this.client.sendAction({ key: 'openPoll', payload: { pollId } });
  }

  closePoll(pollId: string): Promise<unknown> {
    return this.client.sendAction({ key: 'closePoll', payload: { pollId } });
  }

  showPollResults(pollId: string, shown: boolean): Promise<unknown> {
    return this.client.sendAction({ key: 'showPollResults', payload: { pollId, shown } });
  }

  markQuestion(questionId: string, status: QuestionStatus): Promise<unknown> {
    return this.client.sendAction({ key: 'markQuestion', payload: { questionId, status } });
  }

  dismissQuestion(questionId: string): Promise<unknown> {
    return this.client.sendAction({ key: 'dismissQuestion', payload: { questionId } });
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
