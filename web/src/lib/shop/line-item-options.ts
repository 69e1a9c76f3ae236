/** One option of a variant line item (`payload.options` of a cart or order line). */
interface LineItemOption {
  group?: string;
  option?: string;
}

/**
 * A variant line item's options as "Group: Option" texts (the cart's and the order's
 * lines, e.g. "Size: M", "Colour: Red"); none for a line without options.
 */
export function lineItemOptions(item: { payload?: unknown }): string[] {
  const options = (item.payload as { options?: LineItemOption[] } | null | undefined)?.options;
  if (!Array.isArray(options)) return [];
  return options.map((entry) => [entry.group, entry.option].filter(Boolean).join(': ')).filter(Boolean);
}
