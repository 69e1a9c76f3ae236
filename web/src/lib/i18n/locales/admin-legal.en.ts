/** The backoffice's legal pages (`admin.legal.`): privacy policy, terms, imprint. */
export const adminLegalEn = {
  legal: {
    nav: 'Legal pages',
    pageTitle: 'Legal pages',
    intro: 'The shop links these pages in its footer and wherever it asks for consent (joining a presentation, registration, checkout); the live room opens them in a window.',
    language: { en: 'English', de: 'German' },
    title: { en: 'Title (English)', de: 'Title (German)' },
    content: { en: 'Text (English)', de: 'Text (German)' },
    titleRequired: 'Please enter a title.',
    save: 'Save {{page}}',
  },
};
