/** Every combination of one option from each group (groups without a pick are left out). */
export function combinations(picked: string[][]): string[][] {
  return picked
    .filter((options) => options.length > 0)
    .reduce<string[][]>((all, options) => all.flatMap((combo) => options.map((option) => [...combo, option])), [[]])
    .filter((combo) => combo.length > 0);
}

/** The variants' payloads: children of `parent`, numbered after those it has, one per combination. */
export function variantPayloads(
  parent: { id: string; productNumber: string; stock: number; childCount: number },
  combos: string[][],
): Record<string, unknown>[] {
  return combos.map((options, n) => ({
    parentId: parent.id,
    productNumber: `${parent.productNumber}.${parent.childCount + n + 1}`,
    stock: parent.stock,
    options: options.map((id) => ({ id })),
  }));
}
