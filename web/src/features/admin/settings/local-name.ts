import type { Translation } from '../catalogue/types';

/**
 * A record's name in the page's language: the German translation on a German page when
 * there is one, else the record's own (the shop's default language), else `fallback`.
 */
export function localName(record: { name?: string | null; translations?: Translation[] | null }, germanId: string | null, language: string, fallback: string): string {
  if (germanId && language.startsWith('de')) {
    const german = record.translations?.find((entry) => entry.languageId === germanId)?.name;
    if (german) return german;
  }
  return record.name || fallback;
}
