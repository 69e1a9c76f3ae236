export interface VariantRef {
  id: string;
  optionIds?: string[] | null;
  available?: boolean;
  seoUrls?: { seoPathInfo?: string; isCanonical?: boolean; routeName?: string }[] | null;
}

export interface OptionGroup {
  id: string;
  options?: { id: string }[] | null;
}

/** The option the product has selected in each group (group id → option id). */
export function selectedOptions(groups: OptionGroup[], optionIds: readonly string[] = []): Record<string, string> {
  const selected: Record<string, string> = {};
  for (const group of groups) {
    const option = group.options?.find((candidate) => optionIds.includes(candidate.id));
    if (option) selected[group.id] = option.id;
  }
  return selected;
}

/**
 * The variant to switch to when `optionId` of `groupId` is chosen: the one with exactly
 * the new combination, else the one with the new option that keeps most of the other
 * choices (available ones first). Null when no variant has the option.
 */
export function findVariant(
  variants: VariantRef[],
  groups: OptionGroup[],
  current: Record<string, string>,
  groupId: string,
  optionId: string,
): string | null {
  const wanted = { ...current, [groupId]: optionId };
  const wantedIds = groups.map((group) => wanted[group.id]).filter((id): id is string => !!id);
  let best: { id: string; score: number } | null = null;
  for (const variant of variants) {
    const ids = variant.optionIds ?? [];
    if (!ids.includes(optionId)) continue;
    const matches = wantedIds.filter((id) => ids.includes(id)).length;
    const score = matches * 2 + (variant.available === false ? 0 : 1);
    if (matches === wantedIds.length && variant.available !== false) return variant.id;
    if (!best || score > best.score) best = { id: variant.id, score };
  }
  return best?.id ?? null;
}

/** Whether some variant has `optionId` together with the other current choices. */
export function isCombinable(
  variants: VariantRef[],
  groups: OptionGroup[],
  current: Record<string, string>,
  groupId: string,
  optionId: string,
): boolean {
  if (variants.length === 0) return true;
  const wanted = { ...current, [groupId]: optionId };
  const ids = groups.map((group) => wanted[group.id]).filter((id): id is string => !!id);
  return variants.some((variant) => ids.every((id) => (variant.optionIds ?? []).includes(id)));
}
