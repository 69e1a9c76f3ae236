import { expect, type Page } from '@playwright/test';

/*
 * How people get into a room in the e2e specs, in one place: the guide's login to the
 * cockpit and a guest's join from the pre-join page. Every spec uses these instead of
 * typing the forms out, so a changed label or step is changed here once.
 */

/** The demo shop's admin, who is also the guide of the demo appointments. */
export const DEMO_GUIDE = { username: 'admin', password: 'shopware' } as const;

/** The texts the two forms are found by, per language. */
const TEXTS = {
  en: {
    prefix: '',
    username: 'Username',
    password: 'Password',
    logIn: 'Log in',
    live: 'Live connection',
    connected: 'Connected',
    name: 'Your name',
    consent: /privacy policy/,
    grantCart: 'Allow the guide to see and edit my cart',
    join: 'Join',
  },
  de: {
    prefix: '/de-DE',
    username: 'Benutzername',
    password: 'Passwort',
    logIn: 'Anmelden',
    live: 'Live-Verbindung',
    connected: 'Verbunden',
    name: 'Ihr Name',
    consent: /Datenschutzerklärung/,
    grantCart: 'Dem Guide erlauben, meinen Warenkorb zu sehen und zu bearbeiten',
    join: 'Teilnehmen',
  },
} as const;

const texts = (german: boolean) => TEXTS[german ? 'de' : 'en'];

/** The live-connection status of a room or cockpit page. */
export const liveStatus = (page: Page, german = false) => page.getByRole('status', { name: texts(german).live });

export interface GuideLogin {
  /** The appointment's path name; `demo` unless given. */
  appointment?: string;
  /** German labels and the `/de-DE` path. */
  german?: boolean;
  /** Another locale's path prefix (`/en-GB`); English labels. */
  localePrefix?: string;
  /** The demo guide unless given. */
  username?: string;
  password?: string;
  /** false: the login form is open already (a redirect took the page there); nothing is opened. */
  open?: boolean;
}

/** Opens the guide's login of the appointment and sends the form; what follows (a refusal, a redirect) is the caller's. */
export async function submitGuideLogin(page: Page, login: GuideLogin = {}): Promise<void> {
  const { appointment = 'demo', german = false, username = DEMO_GUIDE.username, password = DEMO_GUIDE.password, open = true } = login;
  const t = texts(german);
  if (open) await page.goto(`${login.localePrefix ?? t.prefix}/guide/${appointment}/login`);
  await page.getByLabel(t.username).fill(username);
  await page.getByLabel(t.password).fill(password);
  await page.getByRole('button', { name: t.logIn }).click();
}

/** A guide logs in to the cockpit of the appointment (the demo guide to `demo` unless given) and is connected. */
export async function guideLogsIn(page: Page, login: GuideLogin = {}, { timeout }: { timeout?: number } = {}): Promise<void> {
  await submitGuideLogin(page, login);
  const german = login.german ?? false;
  await expect(liveStatus(page, german)).toHaveText(texts(german).connected, { timeout });
}

export interface GuestJoin {
  /** German labels (and the `/de-DE` path for `joinAsGuest`). */
  german?: boolean;
  /** Also ticks "Allow the guide to see and edit my cart". */
  grantCart?: boolean;
}

/**
 * Fills the pre-join form open on `page` and joins: the name (null: keep the one the form
 * has, a customer's), the privacy consent, and the join button.
 */
export async function submitPrejoin(page: Page, name: string | null, { german = false, grantCart = false }: GuestJoin = {}): Promise<void> {
  const t = texts(german);
  if (name !== null) await page.getByLabel(t.name).fill(name);
  await page.getByLabel(t.consent).check();
  if (grantCart) await page.getByLabel(t.grantCart).check();
  await page.getByRole('button', { name: t.join, exact: true }).click();
}

/**
 * A guest (or a logged-in customer, with `name` null) joins the appointment (`demo` unless
 * given) from its pre-join page and waits for the start in the waiting room; with
 * `waiting: false` the join is only sent (the room may have started, or the test waits for
 * something else).
 */
export async function joinAsGuest(
  page: Page,
  name: string | null,
  { appointment = 'demo', waiting = true, ...join }: GuestJoin & { appointment?: string; waiting?: boolean } = {},
): Promise<void> {
  await page.goto(`${texts(join.german ?? false).prefix}/presentation/${appointment}/prejoin`);
  await submitPrejoin(page, name, join);
  if (waiting) await expect(page).toHaveURL(new RegExp(`/presentation/${appointment}/waiting$`));
}

/**
 * Logs in to the backoffice (`/admin/login`, the demo admin unless given) and sends the
 * form; with `open: false` the login page is open already (`/admin` redirected there).
 */
export async function submitBackofficeLogin(
  page: Page,
  { german = false, username = DEMO_GUIDE.username, password = DEMO_GUIDE.password, open = true }: Omit<GuideLogin, 'appointment' | 'localePrefix'> = {},
): Promise<void> {
  const t = texts(german);
  if (open) await page.goto(`${t.prefix}/admin/login`);
  await page.getByLabel(t.username).fill(username);
  await page.getByLabel(t.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: t.logIn }).click();
}
