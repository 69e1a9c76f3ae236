/** One price of a shipping method's matrix (Shopware's `shipping_method_price`, by cart value: `calculation` 2). */
export interface ShippingPrice {
  id?: string;
  calculation?: number | null;
  quantityStart?: number | null;
  quantityEnd?: number | null;
  currencyPrice?: { currencyId?: string | null; gross: number; net?: number; linked?: boolean }[] | null;
}

const grossOf = (price: ShippingPrice | undefined): number | null => price?.currencyPrice?.[0]?.gross ?? null;

/**
 * What the merchant edits of a price matrix: the cost (the first price's gross amount)
 * and the cart value from which shipping is free (a later price of 0 from a start above
 * 0), or none.
 */
export function shippingPrices(prices: ShippingPrice[]): { price: number | null; freeFrom: number | null } {
  const ordered = [...prices].sort((a, b) => (a.quantityStart ?? 0) - (b.quantityStart ?? 0));
  const free = ordered.slice(1).find((entry) => grossOf(entry) === 0 && (entry.quantityStart ?? 0) > 0);
  return { price: grossOf(ordered[0]), freeFrom: free?.quantityStart ?? null };
}

/**
 * The `prices` of a shipping method with cost `price` and free shipping from `freeFrom`
 * (none: never free), in the currency of the prices it had. What the inputs could not
 * read as numbers (or an empty cost) goes to the API as it is, so its refusal names the field.
 */
export function shippingPricesPayload(price: number | string | undefined, freeFrom: number | string | undefined, current: ShippingPrice[]): Record<string, unknown>[] {
  const currencyId = current[0]?.currencyPrice?.[0]?.currencyId ?? null;
  const amount = (gross: unknown) => [{ ...(currencyId ? { currencyId } : {}), gross, net: gross, linked: false }];
  const base = { calculation: 2, quantityStart: 0, quantityEnd: freeFrom ?? null, currencyPrice: amount(price ?? null) };
  if (freeFrom === undefined) return [base];
  return [base, { calculation: 2, quantityStart: freeFrom, quantityEnd: null, currencyPrice: amount(0) }];
}
