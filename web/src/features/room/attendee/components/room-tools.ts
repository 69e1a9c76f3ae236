import type { StoreApi } from 'zustand/vanilla';
import type { CollectionsState } from '../stores/collections';
import type { SidebarsState } from '../stores/sidebars';

/** What the attendee's sidebars and product views share in one room. */
export interface RoomTools {
  contextToken: string;
  collections: StoreApi<CollectionsState>;
  sidebars: StoreApi<SidebarsState>;
  /** Opens the product detail / quick view modal (and records the product as seen). */
  openProduct(productId: string, name: string): void;
  /** Adds to the attendee's cart and tells the guide. */
  addToCart(productId: string, quantity: number): Promise<void>;
  /** Tells the guide (through the hub) that the attendee's cart changed. */
  cartChanged(): void;
}
