import type { StoreApi } from 'zustand/vanilla';
import type { AttendeeSession } from '../session/attendee-session';
import type { CollectionsState } from '../stores/collections';
import type { SidebarsState } from '../stores/sidebars';

/** What the attendee's sidebars and product views share in one room. */
export interface RoomTools {
  contextToken: string;
  session: AttendeeSession;
  collections: StoreApi<CollectionsState>;
  sidebars: StoreApi<SidebarsState>;
  /** Opens the product detail / quick view modal (and records the product as seen). */
  openProduct(productId: string, name: string): void;
}
