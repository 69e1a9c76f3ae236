/** A record with a place in a list the merchant orders (payment methods, shipping methods). */
export interface Positioned {
  id: string;
  position: number;
}

/**
 * The positions after moving `id` one place up (-1) or down (+1): every record numbered
 * 1, 2, 3, … in the new order (the stored positions may repeat or have gaps), only those
 * that change. Nothing moves past either end.
 */
export function moved<T extends Positioned>(list: T[], id: string, step: -1 | 1): { id: string; position: number }[] {
  const ordered = [...list].sort((a, b) => a.position - b.position);
  const from = ordered.findIndex((entry) => entry.id === id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= ordered.length) return [];
  [ordered[from], ordered[to]] = [ordered[to]!, ordered[from]!];
  return ordered.map((entry, index) => ({ id: entry.id, position: index + 1 })).filter((entry, index) => ordered[index]!.position !== entry.position);
}
