import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRuntimeConfig } from '@/config/runtime';
import type { Translation } from './types';

/** The German language's id (the shop's default language is English: its texts are the record's own fields). */
let germanId: Promise<string | null> | null = null;

/** Reads the languages from the Store API once (the Admin API has no language entity here). */
export function useGermanLanguageId(): string | null {
  const config = useRuntimeConfig();
  const [id, setId] = useState<string | null>(null);
  useEffect(() => {
    germanId ??= fetch(`${config.shopEndpoint}/store-api/language`, {
      method: 'POST',
      headers: { 'sw-access-key': config.shopAccessToken, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ associations: { translationCode: {}, locale: {} } }),
    })
      .then((response) => response.json() as Promise<{ elements?: { id: string; translationCode?: { code?: string }; locale?: { code?: string } }[] }>)
      .then((answer) => answer.elements?.find((l) => (l.translationCode?.code ?? l.locale?.code) === 'de-DE')?.id ?? null)
      .catch(() => {
        germanId = null;
        return null;
      });
    let live = true;
    void germanId.then((value) => live && setId(value));
    return () => {
      live = false;
    };
  }, [config]);
  return id;
}

/** The German text of a field, from a record's `translations`. */
export function germanText(translations: Translation[] | undefined, languageId: string | null, field: 'name' | 'description'): string {
  if (!languageId) return '';
  return translations?.find((entry) => entry.languageId === languageId)?.[field] ?? '';
}

/** Shopware's `translations` payload for German: only the fields given (empty ones are left out). */
export function germanPayload(fields: Record<string, string>): Record<string, unknown> {
  const german = Object.fromEntries(Object.entries(fields).filter(([, value]) => value.trim() !== ''));
  return Object.keys(german).length ? { translations: { 'de-DE': german } } : {};
}

/**
 * A record's name as the backoffice's lists show it: the German one that was saved on a
 * German page (issue #31, item 6), else the record's own (the default language's).
 */
export function useDisplayName(): (record: { name?: string | null; translations?: Translation[] | null }) => string {
  const { i18n } = useTranslation();
  const germanId = useGermanLanguageId();
  const german = i18n.language.startsWith('de');
  return useCallback(
    (record) => (german ? germanText(record.translations ?? undefined, germanId, 'name') : '') || record.name || '',
    [german, germanId],
  );
}
