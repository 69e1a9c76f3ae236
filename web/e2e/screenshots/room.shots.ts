import path from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { ownServers } from '../room';
import { guideLogsIn } from '../logins';

/*
 * The guide's cockpit and the attendee's view at desktop (1440×900) and phone (390×844)
 * sizes, in English and German: pre-join, waiting room, the cockpit before the start and
 * running (slide notes, participants with an attendee's likes and cart, statistics), the
 * attendee on a product slide, a sidebar, the cart, the product modal and the speech view
 * without video. Written to
 * docs/screenshots/room-*.png.
 */

const OUT = path.resolve(import.meta.dirname, '../../../docs/screenshots');
const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;
type Size = keyof typeof SIZES;

const { newPage: newRoomPage } = ownServers();

async function newPage(browser: Browser, size: Size): Promise<Page> {
  const page = await newRoomPage(browser);
  await page.setViewportSize(SIZES[size]);
  return page;
}

async function shot(page: Page, name: string) {
  // Fonts, images settle first.
  await page.evaluate(() => document.fonts.ready);
  // No hover effect where the last click left the mouse.
  await page.mouse.move(0, 0);
  // The pictures in view have loaded (lazy ones further down need not).
  await page.waitForFunction(() =>
    Array.from(document.images).every((image) => {
      const box = image.getBoundingClientRect();
      const inView = box.bottom > 0 && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth;
      return !inView || (image.complete && image.naturalWidth > 0);
    }),
  );
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.screenshot({ path: path.join(OUT, `room-${name}.png`), animations: 'disabled' });
}

/** The texts an attendee's steps look for, per language. */
const ATTENDEE_TEXTS = {
  en: {
    prefix: '',
    name: 'Your name',
    consent: /privacy policy/,
    grant: 'Allow the guide to see and edit my cart',
    join: 'Join',
    waiting: 'The presentation will start soon',
    likes: /^Likes/,
    closeLikes: 'Close Likes',
    cart: /^Cart/,
    closeCart: 'Close Cart',
    addToCart: 'Add to cart',
    details: /^Details/,
  },
  de: {
    prefix: '/de-DE',
    name: 'Ihr Name',
    consent: /Datenschutzerklärung/,
    grant: 'Dem Guide erlauben, meinen Warenkorb zu sehen und zu bearbeiten',
    join: 'Teilnehmen',
    waiting: 'Die Präsentation beginnt gleich',
    likes: /^Likes/,
    closeLikes: 'Likes schließen',
    cart: /^Warenkorb/,
    closeCart: 'Warenkorb schließen',
    addToCart: 'In den Warenkorb',
    details: /^Details/,
  },
} as const;

interface Attendee {
  page: Page;
  size: Size;
  language: keyof typeof ATTENDEE_TEXTS;
  name: string;
}

test('room screenshots', async ({ browser }) => {
  test.setTimeout(600_000);
  const ada: Attendee = { page: await newPage(browser, 'desktop'), size: 'desktop', language: 'en', name: 'Ada Attendee' };
  const attendees: Attendee[] = [
    ada,
    { page: await newPage(browser, 'phone'), size: 'phone', language: 'en', name: 'Pia Phone' },
    { page: await newPage(browser, 'desktop'), size: 'desktop', language: 'de', name: 'Greta Gast' },
    { page: await newPage(browser, 'phone'), size: 'phone', language: 'de', name: 'Jonas Handy' },
  ];
  const suffix = ({ size, language }: Attendee) => `${size}${language === 'de' ? '-de' : ''}`;
  for (const attendee of attendees) {
    const { page } = attendee;
    const texts = ATTENDEE_TEXTS[attendee.language];
    await page.goto(`${texts.prefix}/presentation/demo/prejoin`);
    await page.getByLabel(texts.name).fill(attendee.name);
    await page.getByLabel(texts.consent).check();
    // Ada lets the guide see her cart, so the cockpit can show it.
    if (attendee === ada) await page.getByLabel(texts.grant).check();
    await shot(page, `prejoin-${suffix(attendee)}`);
    await page.getByRole('button', { name: texts.join, exact: true }).click();
    await expect(page.getByRole('heading', { name: texts.waiting })).toBeVisible();
    await shot(page, `waiting-${suffix(attendee)}`);
  }

  const guides = { desktop: await newPage(browser, 'desktop'), phone: await newPage(browser, 'phone') };
  for (const page of Object.values(guides)) await guideLogsIn(page);
  // A second guide in German: the longer texts of the cockpit.
  const germanGuide = await newPage(browser, 'desktop');
  await guideLogsIn(germanGuide, { german: true });
  const guide = guides.desktop;
  await expect(guide.getByRole('region', { name: 'Participants' }).getByRole('listitem', { name: 'Ada Attendee' })).toBeVisible();
  await shot(guide, 'guide-not-started-desktop');
  await shot(guides.phone, 'guide-not-started-phone');
  await guide.getByRole('button', { name: 'Start presentation' }).click();
  await guide.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();
  for (const { page } of attendees) await expect(page.getByTestId('slide')).toHaveAttribute('data-slide-index', '1');

  // The notes of the first slide, on the phone in the slides panel.
  const notes = guide.getByRole('region', { name: 'Slide notes' });
  await expect(notes).toContainText('Welcome everyone');
  await shot(guide, 'guide-notes-desktop');
  await guides.phone.getByRole('button', { name: 'Slides', exact: true }).click();
  await expect(guides.phone.getByRole('region', { name: 'Slide notes' })).toContainText('Welcome everyone');
  await shot(guides.phone, 'guide-notes-phone');
  await guides.phone.getByRole('button', { name: 'Slides', exact: true }).click();

  // To the first slide with products.
  const slide = ada.page.getByTestId('slide');
  const thumbs = guide.locator('.slide-navigator').getByRole('button', { name: /^Slide \d+: / });
  const count = await thumbs.count();
  for (let index = 0; index < count; index += 1) {
    await thumbs.nth(index).click();
    await expect(slide).toHaveAttribute('data-slide-index', String(index + 1));
    await expect(slide).toHaveAttribute('aria-busy', 'false');
    if ((await slide.getByTestId('room-product').count()) > 0) break;
  }
  for (const attendee of attendees) {
    await expect(attendee.page.getByTestId('room-product').first()).toBeVisible();
    await shot(attendee.page, `attendee-slide-${suffix(attendee)}`);
  }

  for (const attendee of attendees.filter(({ language }) => language === 'en')) {
    const { page, size } = attendee;
    const texts = ATTENDEE_TEXTS.en;
    // The second product: the first of the demo slide is sold out.
    const product = page.getByTestId('room-product').nth(1);
    await product.getByRole('button', { name: /^Like / }).first().click();
    await page.getByRole('button', { name: texts.likes }).click();
    await shot(page, `attendee-sidebar-${size}`);
    await page.getByRole('button', { name: texts.closeLikes }).click();
    await product.getByRole('button', { name: texts.details }).first().click();
    const modal = page.getByRole('dialog');
    await expect(modal).toBeVisible();
    await shot(page, `attendee-product-modal-${size}`);
    await modal.getByRole('button', { name: texts.addToCart }).click();
    await expect(page.getByTestId('count-cart')).toHaveText('1');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: texts.cart }).click();
    await expect(page.getByRole('region', { name: 'Cart', exact: true }).getByRole('listitem')).toHaveCount(1);
    await shot(page, `attendee-cart-${size}`);
    await page.getByRole('button', { name: texts.closeCart }).click();
  }

  // The cockpit with Ada's likes and cart open, then the statistics.
  const entry = guide.getByRole('region', { name: 'Participants' }).getByRole('listitem', { name: ada.name });
  await entry.getByRole('button', { name: `Likes and cart of ${ada.name}` }).click();
  await expect(entry.getByTestId('attendee-cart-summary')).toBeVisible();
  await shot(guide, 'guide-running-desktop');
  await shot(guides.phone, 'guide-running-phone');
  await expect(germanGuide.getByTestId('slide-position')).toHaveText(/^Folie 2 von/);
  await shot(germanGuide, 'guide-running-desktop-de');
  await guides.phone.getByRole('button', { name: 'Participants', exact: true }).click();
  await expect(guides.phone.getByRole('region', { name: 'Participants' })).toBeVisible();
  await shot(guides.phone, 'guide-participants-phone');
  // "Speech" without video: the attendee's stage says that the guide is talking.
  await guide.getByRole('radio', { name: 'Speech' }).click();
  await expect(ada.page.getByTestId('speech-view')).toBeVisible();
  await shot(ada.page, 'attendee-speech-desktop');
  await guide.getByRole('radio', { name: 'Content' }).click();
  await expect(ada.page.getByTestId('slide')).toBeVisible();
  await guide.getByRole('button', { name: 'Statistics' }).click();
  await expect(guide.getByRole('dialog', { name: 'Participant statistics' })).toBeVisible();
  await shot(guide, 'guide-statistics-desktop');
  await guide.keyboard.press('Escape');

  // The catalogue with the saved products, on both sizes.
  for (const [size, page] of Object.entries(guides)) {
    // The phone's participants sheet (opened above) would cover the stage.
    const participants = page.getByRole('button', { name: 'Participants', exact: true });
    if ((await participants.getAttribute('aria-pressed')) === 'true') await participants.click();
    await page.getByRole('button', { name: 'Catalogue', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Catalogue' });
    const first = panel.getByRole('list', { name: 'Products of the catalogue' }).getByRole('listitem').first();
    await expect(first).toBeVisible();
    // Each cockpit loads its saved products when it opens: the phone's does not know the desktop's yet.
    const name = (await first.getAttribute('aria-label')) ?? '';
    const save = first.getByRole('button', { name: `Save ${name}` });
    if (await save.isEnabled()) await save.click();
    await expect(panel.getByRole('region', { name: 'Saved products' }).getByRole('listitem').first()).toBeVisible();
    await panel.scrollIntoViewIfNeeded();
    await shot(page, `guide-catalogue-${size}`);
    await page.getByRole('button', { name: 'Catalogue', exact: true }).click();
  }

  // The interaction templates on both sizes: one prepared on the desktop, the form open there.
  for (const [size, page] of Object.entries(guides)) {
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Interaction templates' });
    if (size === 'desktop') {
      await panel.getByRole('button', { name: 'New template' }).click();
      const form = panel.getByRole('form', { name: 'New template' });
      await form.getByLabel('Name').fill('Welcome code');
      await form.getByLabel('What it does').selectOption('message');
      await form.getByLabel('Announcement (sent to the chat)').fill('10 % off today with KITE10');
      await form.getByRole('button', { name: 'Save template' }).click();
      await expect(panel.getByTestId('template')).toHaveCount(1);
      await panel.getByRole('button', { name: 'New template' }).click();
      await expect(panel.getByRole('form', { name: 'New template' }).getByRole('listitem').first()).toBeVisible();
    } else {
      await expect(panel.getByTestId('template').first()).toBeVisible();
    }
    await panel.scrollIntoViewIfNeeded();
    await shot(page, `guide-templates-${size}`);
    await page.getByRole('button', { name: 'Templates', exact: true }).click();
  }

  // Chat, a poll and a question, on every screen (issue #19).
  const pollForm = guide.getByTestId('poll-new');
  await pollForm.locator('summary').click();
  await pollForm.getByLabel('Question').fill('Which colour suits autumn?');
  await pollForm.getByLabel('Answer 1').fill('Rust red');
  await pollForm.getByLabel('Answer 2').fill('Forest green');
  await pollForm.getByRole('button', { name: 'Create poll' }).click();
  const guidePoll = guide.getByTestId('poll').filter({ hasText: 'Which colour suits autumn?' });
  await guidePoll.getByRole('button', { name: 'Open', exact: true }).click();
  await guide.getByTestId('chat-input').fill('Welcome! Ask anything about the collection.');
  await guide.getByTestId('chat-send').click();
  // On a phone the sticky toolbar covers the bottom edge, where Playwright would scroll a button to.
  const centred = async (locator: Locator) => {
    await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    return locator;
  };
  for (const attendee of attendees) {
    const { page } = attendee;
    const poll = page.getByTestId('poll').filter({ hasText: 'Which colour suits autumn?' });
    await (await centred(poll.getByRole('radio').first())).check();
    await (await centred(poll.getByTestId('poll-vote'))).click();
    await (await centred(page.getByTestId('chat-input'))).fill(attendee.language === 'de' ? 'Gibt es die Jacke auch in Blau?' : 'Does the jacket come in blue?');
    await (await centred(page.getByTestId('chat-send'))).click();
  }
  await ada.page.getByTestId('engagement-tab-questions').click();
  await ada.page.getByTestId('question-input').fill('How warm is the down jacket below zero?');
  await ada.page.getByTestId('question-ask').click();
  await guide.getByTestId('engagement-tab-questions').click();
  const question = guide.getByTestId('question').filter({ hasText: 'How warm is the down jacket' });
  await question.getByRole('button', { name: 'Answer now' }).click();
  await guidePoll.getByRole('button', { name: 'Show results' }).click();
  for (const attendee of attendees) {
    const { page } = attendee;
    await expect(page.getByTestId('question-answering')).toBeVisible();
    // Ada is on her questions tab; the others on the chat.
    if (attendee === ada) await expect(page.getByTestId('question')).toHaveCount(1);
    else await expect(page.getByTestId('chat-messages').getByTestId('chat-message')).toHaveCount(attendees.length + 1);
    await page.getByTestId('engagement').scrollIntoViewIfNeeded();
    await shot(page, `attendee-engagement-${suffix(attendee)}`);
  }
  await guide.getByTestId('engagement').scrollIntoViewIfNeeded();
  await shot(guide, 'guide-engagement-desktop');
  await guides.phone.getByTestId('engagement').scrollIntoViewIfNeeded();
  await shot(guides.phone, 'guide-engagement-phone');
  await germanGuide.getByTestId('engagement').scrollIntoViewIfNeeded();
  await shot(germanGuide, 'guide-engagement-desktop-de');

  // The widgets and a new instant listing in the cockpit.
  await guide.getByRole('button', { name: 'Widgets' }).click();
  await shot(guide, 'guide-widgets-desktop');
  await guide.getByRole('button', { name: 'Widgets' }).click();
  await guide.getByRole('button', { name: 'New instant listing' }).click();
  const editor = guide.locator('.listing-editor');
  await expect(editor.getByRole('listitem').first()).toBeVisible();
  await expect(editor.locator('.spinner')).toHaveCount(0);
  await shot(guide, 'guide-listing-editor-desktop');

  // The end, for everyone.
  await guide.getByRole('button', { name: 'End presentation' }).click();
  await guide.getByRole('dialog', { name: 'End the presentation?' }).getByRole('button', { name: 'End for everyone' }).click();
  for (const attendee of attendees.filter(({ language }) => language === 'en')) {
    await expect(attendee.page.getByRole('heading', { name: 'Thank you for joining' })).toBeVisible();
    await shot(attendee.page, `attendee-ended-${attendee.size}`);
  }

  // The ways into a room from the shop, in both languages and sizes: the upcoming presentations,
  // a customers-only appointment's login and registration, the invitation, a footer page.
  for (const attendee of attendees) {
    const { page } = attendee;
    const { prefix } = ATTENDEE_TEXTS[attendee.language];
    const about = attendee.language === 'de' ? 'Über uns' : 'About us';
    await page.goto(`${prefix}/`);
    const aboutHref = await page.getByRole('contentinfo').getByRole('link', { name: about }).getAttribute('href');
    const pages: [string, string][] = [
      ['presentations', `${prefix}/presentations`],
      ['customer-login', `${prefix}/presentation/demo-customers/login`],
      ['customer-register', `${prefix}/presentation/demo-customers/register`],
      ['invitation', `${prefix}/invitation/demo`],
      ['footer-about', aboutHref ?? `${prefix}/`],
    ];
    for (const [name, url] of pages) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 20_000 });
      await shot(page, `${name}-${attendee.size}-${attendee.language}`);
    }
  }
});
