// Moved to @/components/cart/cart-summary. The room (moved in parallel) still imports this path: the lead re-points
// its imports after the merge and deletes this file.
export * from '@/components/cart/cart-summary';
