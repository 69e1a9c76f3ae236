/** A copy of `map` without the entry `key`. */
export function withoutKey<T>(map: Record<string, T>, key: string): Record<string, T> {
  const rest = { ...map };
  delete rest[key];
  return rest;
}
