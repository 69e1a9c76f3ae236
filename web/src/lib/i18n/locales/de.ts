import type { Translations } from './en';

export const de: Translations = {
  app: {
    name: 'Salesroom',
    loading: 'Wird geladen…',
  },
  config: {
    title: 'Die Anwendung kann nicht starten',
    missingShop: 'Der Shop-Endpunkt und der Shop-Zugriffsschlüssel müssen beide in der Konfiguration gesetzt sein.',
    invalid: 'Die Konfiguration ist ungültig.',
    unavailable: 'Die Konfiguration konnte nicht geladen werden. Bitte versuchen Sie es in ein paar Sekunden erneut.',
  },
  errors: {
    title: 'Ups, da ist was schiefgelaufen.',
    notFoundTitle: 'Seite nicht gefunden',
    notFound: 'Die Seite konnte nicht gefunden werden.',
    generic: 'Etwas hat nicht wie erwartet funktioniert. Bitte versuchen Sie es erneut.',
    required: 'Eingabe erforderlich',
  },
  connection: {
    label: 'Live-Verbindung',
    connecting: 'Verbindung wird aufgebaut…',
    connected: 'Verbunden',
    reconnecting: 'Verbindung wird wiederhergestellt…',
    reconnected: 'Wieder verbunden',
    lost: 'Verbindung verloren',
  },
  slides: {
    position: 'Folie {{number}}',
    positionOf: 'Folie {{number}} von {{total}}',
    navigation: 'Folien',
    previous: 'Vorherige Folie',
    next: 'Nächste Folie',
    untitled: 'Folie ohne Titel',
    switchFailed: 'Die Folie konnte nicht gewechselt werden. Bitte versuchen Sie es erneut.',
  },
  guide: {
    loginTitle: 'Anmeldung für Guides',
    username: 'Benutzername',
    password: 'Passwort',
    logIn: 'Anmelden',
    loginFailed: 'Die Anmeldung ist fehlgeschlagen. Bitte überprüfen Sie Benutzername und Passwort.',
    notFound: 'Dieser Termin konnte nicht gefunden werden.',
  },
  presentation: {
    prejoinTitle: 'An der Präsentation teilnehmen',
    name: 'Ihr Name',
    consent:
      'Ich bin einverstanden, dass mein Name und meine Aktivität in dieser Präsentation gemäß der Datenschutzerklärung verarbeitet werden.',
    consentRequired: 'Bitte akzeptieren Sie die Datenschutzerklärung, um teilzunehmen.',
    join: 'Teilnehmen',
    notFound: 'Diese Präsentation konnte nicht gefunden werden.',
    deniedTitle: 'Zugriff verweigert',
    denied: 'Sie haben keinen Zugang zu dieser Präsentation.',
  },
};
