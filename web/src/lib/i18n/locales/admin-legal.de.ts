import type { adminLegalEn } from './admin-legal.en';

/** Die Rechtstexte im Backoffice (`admin.legal.`). */
export const adminLegalDe: typeof adminLegalEn = {
  legal: {
    nav: 'Rechtstexte',
    pageTitle: 'Rechtstexte',
    intro: 'Der Shop verlinkt diese Seiten im Fußbereich und überall, wo er um Zustimmung bittet (Teilnahme an einer Präsentation, Registrierung, Kasse); der Live-Raum öffnet sie in einem Fenster.',
    language: { en: 'Englisch', de: 'Deutsch' },
    title: { en: 'Titel (Englisch)', de: 'Titel (Deutsch)' },
    content: { en: 'Text (Englisch)', de: 'Text (Deutsch)' },
    titleRequired: 'Bitte geben Sie einen Titel ein.',
    save: '{{page}} speichern',
  },
};
