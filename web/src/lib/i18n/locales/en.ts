export const en = {
  app: {
    name: 'Salesroom',
    loading: 'Loading…',
  },
  config: {
    title: 'The app cannot start',
    missingShop: 'The shop endpoint and the shop access token must both be set in the configuration.',
    invalid: 'The configuration is invalid.',
    unavailable: 'The configuration could not be loaded. Please try again in a few seconds.',
  },
  errors: {
    title: 'Oops, something went wrong.',
    notFoundTitle: 'Page Not Found',
    notFound: 'This page could not be found.',
    generic: "Something didn't work as expected. Please try again.",
    required: 'Input required',
  },
  connection: {
    label: 'Live connection',
    connecting: 'Connecting…',
    connected: 'Connected',
    reconnecting: 'Reconnecting…',
    reconnected: 'Reconnected',
    lost: 'Connection lost',
  },
  slides: {
    position: 'Slide {{number}}',
    positionOf: 'Slide {{number}} of {{total}}',
    navigation: 'Slides',
    previous: 'Previous slide',
    next: 'Next slide',
    untitled: 'Untitled slide',
    switchFailed: 'The slide could not be switched. Please try again.',
  },
  guide: {
    loginTitle: 'Guide login',
    username: 'Username',
    password: 'Password',
    logIn: 'Log in',
    loginFailed: 'Login failed. Please check your username and password.',
    notFound: 'This appointment could not be found.',
  },
  presentation: {
    prejoinTitle: 'Join the presentation',
    name: 'Your name',
    consent: 'I agree that my name and my activity in this presentation are processed according to the privacy policy.',
    consentRequired: 'Please accept the privacy policy to join.',
    join: 'Join',
    notFound: 'This presentation could not be found.',
    deniedTitle: 'Access denied',
    denied: 'You do not have access to this presentation.',
  },
} as const;

type Messages<T> = { [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };

/** The shape every language's texts must have: the English keys. */
export type Translations = Messages<typeof en>;
