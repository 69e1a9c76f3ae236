import { expect as baseExpect, test, type Page } from '@playwright/test';
import { emptyShop, utcInput } from './empty-shop';
import { joinAsGuest, submitBackofficeLogin } from './logins';

/*
 * Issue 31's dead ends, from an empty shop (DEMO=0):
 * - item 9: the presentation editor makes text, image, text-with-image and
 *   product-with-text slides without a layout editor (the shop has no CMS layouts), and a
 *   listing slide's title is shown to attendees;
 * - item 8: a self-service appointment opens in its window without a guide, and each
 *   attendee goes through the slides alone;
 * - item 10: an unknown, ended, closed or customers-only appointment says so before the
 *   pre-join screen asks for a name and consent.
 */

const PASSWORD = 'dead-ends-admin-pass';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const IMAGE = 'Image (JPG, PNG or WebP, 5 MB at most)';

/** A debug build on a busy machine: pages may take a while. */
const expect = baseExpect.configure({ timeout: 15_000 });

const { newPage, origin } = emptyShop(PASSWORD);

/** Types `text` into a slide's rich-text field. */
async function typeInto(page: Page, slide: ReturnType<Page['getByTestId']>, label: string, text: string): Promise<void> {
  await slide.getByRole('textbox', { name: label, exact: true }).click();
  await page.keyboard.type(text);
}

test('from an empty shop the editor makes text, image and product slides; a self-service appointment opens without a guide, each attendee on their own', async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await newPage(browser);
  const nav = admin.getByRole('navigation', { name: 'Backoffice' });

  await test.step('a product to show', async () => {
    await admin.goto('/admin/login');
    await submitBackofficeLogin(admin, { password: PASSWORD, open: false });
    await nav.getByRole('link', { name: 'Categories' }).click();
    await admin.getByLabel('Name (English)').fill('Kites');
    await admin.getByLabel('Name (German)').fill('Drachen');
    await admin.getByRole('button', { name: 'Create' }).click();
    await expect(admin.getByRole('navigation', { name: 'Category tree' }).getByText('Kites', { exact: true })).toBeVisible();
    await nav.getByRole('link', { name: 'Products' }).click();
    await admin.getByRole('link', { name: 'New product' }).click();
    await admin.getByLabel('Product number').fill('KITE-1');
    await admin.getByLabel('Name (English)').fill('Zephyr kite');
    await admin.getByLabel('Name (German)').fill('Zephyr-Drachen');
    await admin.getByLabel('Price (gross)', { exact: true }).fill('100');
    await admin.getByLabel('Stock', { exact: true }).fill('10');
    await admin.getByRole('checkbox', { name: 'Kites' }).check();
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByRole('heading', { level: 1, name: 'Edit product: Zephyr kite' })).toBeVisible();
  });

  await test.step('a presentation of a text, an image, an intro, a product with text and a listing, no layout needed', async () => {
    await nav.getByRole('link', { name: 'Presentations' }).click();
    await admin.getByRole('link', { name: 'New presentation' }).click();
    await admin.getByLabel('Name', { exact: true }).fill('Self tour');
    const kind = admin.getByLabel('Kind of the new slide');
    const slides = admin.getByTestId('admin-slide');

    // The shop has no CMS layouts: the layout choice says what to do instead.
    await kind.selectOption('cms');
    await admin.getByRole('button', { name: 'Add slide' }).click();
    await expect(slides.nth(0)).toContainText('The shop has no CMS layouts: make a text, image or text-with-image slide instead.');
    await slides.nth(0).getByRole('button', { name: 'Remove' }).click();
    await expect(slides).toHaveCount(0);

    await kind.selectOption({ label: 'Text' });
    await admin.getByRole('button', { name: 'Add slide' }).click();
    await slides.nth(0).getByLabel('Title (English)').fill('Welcome');
    await typeInto(admin, slides.nth(0), 'Text (English)', 'Hello and welcome to our kites.');

    await kind.selectOption({ label: 'Image' });
    await admin.getByRole('button', { name: 'Add slide' }).click();
    await slides.nth(1).getByLabel('Title (English)').fill('A picture');
    await slides.nth(1).getByLabel(IMAGE).setInputFiles({ name: 'sky.png', mimeType: 'image/png', buffer: PNG });
    await expect(slides.nth(1).getByTestId('slide-image')).toBeVisible();

    await kind.selectOption({ label: 'Text with image (intro)' });
    await admin.getByRole('button', { name: 'Add slide' }).click();
    await slides.nth(2).getByLabel('Title (English)').fill('Intro');
    await slides.nth(2).getByLabel(IMAGE).setInputFiles({ name: 'intro.png', mimeType: 'image/png', buffer: PNG });
    await expect(slides.nth(2).getByTestId('slide-image')).toBeVisible();
    await typeInto(admin, slides.nth(2), 'Text (English)', 'Built to fly.');

    await kind.selectOption({ label: 'Product with text' });
    await admin.getByRole('button', { name: 'Add slide' }).click();
    await slides.nth(3).getByLabel('Title (English)').fill('Our star');
    await slides.nth(3).getByLabel('Find the product').fill('zephyr');
    await slides.nth(3).getByRole('button', { name: 'Choose Zephyr kite (KITE-1)' }).click();
    await typeInto(admin, slides.nth(3), 'Text (English)', 'Light and strong.');

    await kind.selectOption({ label: 'Product listing' });
    await admin.getByRole('button', { name: 'Add slide' }).click();
    await slides.nth(4).getByLabel('Title (English)').fill('All our kites');
    await slides.nth(4).getByLabel('Add a product').fill('zephyr');
    await slides.nth(4).getByRole('button', { name: 'Choose Zephyr kite (KITE-1)' }).click();

    await admin.getByRole('button', { name: 'Create' }).click();
    await expect(admin.getByRole('heading', { name: 'Presentation: Self tour', level: 1 })).toBeVisible();
    // Read back from the server: kinds, texts and pictures as made.
    await expect(slides).toHaveCount(5);
    await expect(slides.nth(0).getByRole('textbox', { name: 'Text (English)', exact: true })).toHaveText('Hello and welcome to our kites.');
    await expect(slides.nth(1).getByTestId('slide-image')).toBeVisible();
    await expect(slides.nth(2).getByRole('textbox', { name: 'Text (English)', exact: true })).toHaveText('Built to fly.');
    await expect(slides.nth(3)).toContainText('Zephyr kite');
  });

  await test.step('a self-service appointment, open now', async () => {
    await nav.getByRole('link', { name: 'Appointments' }).click();
    await admin.getByRole('link', { name: 'New appointment' }).click();
    await admin.getByLabel('Name (English)').fill('Self tour');
    await admin.getByLabel('Presentation').selectOption({ label: 'Self tour' });
    await admin.getByLabel('Kind', { exact: true }).selectOption({ label: 'Self-service' });
    await admin.getByLabel('Path (part of the invitation link)').fill('self-tour');
    await admin.getByLabel('Time zone').selectOption('UTC');
    await admin.getByLabel('Start', { exact: true }).fill(utcInput(-5));
    await admin.getByLabel('End', { exact: true }).fill(utcInput(120));
    await admin.getByRole('button', { name: 'Create' }).click();
    await expect(admin.getByRole('heading', { name: 'Appointment: Self tour', level: 1 })).toBeVisible();
  });

  await test.step('/presentations lists it as self-service, with its window', async () => {
    const visitor = await newPage(browser);
    await visitor.goto('/presentations');
    const listed = visitor.getByRole('list', { name: 'Live presentations' }).getByRole('listitem', { name: 'Self tour' });
    await expect(listed.getByTestId('self-service-badge')).toHaveText('Self-service');
    await expect(listed.getByTestId('presentation-start')).toHaveText(/^Open from \w+day, .+ until \w+day, .+$/);
    await visitor.goto('/de-DE/presentations');
    const liste = visitor.getByRole('list', { name: 'Live-Präsentationen' }).getByRole('listitem', { name: 'Self tour' });
    await expect(liste.getByTestId('self-service-badge')).toHaveText('Selbstständig');
    await expect(liste.getByTestId('presentation-start')).toHaveText(/^Geöffnet von \w+, .+ bis \w+, .+$/);
    await visitor.context().close();
  });

  const ada = await newPage(browser);
  const adaSlide = ada.getByTestId('slide');
  await test.step('an attendee gets in without a guide and goes through every slide', async () => {
    await joinAsGuest(ada, 'Ada', { appointment: 'self-tour', waiting: false });
    await expect(ada).toHaveURL(/\/presentation\/self-tour$/);
    await expect(ada.getByText('No guide: you go through this presentation at your own pace.')).toBeVisible();
    await expect(adaSlide).toHaveAttribute('data-slide-index', '1');
    await expect(adaSlide.getByTestId('slide-position')).toHaveText('Slide 1 of 5');
    await expect(adaSlide.getByRole('heading', { name: 'Welcome' })).toBeVisible();
    await expect(adaSlide.getByTestId('slide-content')).toContainText('Hello and welcome to our kites.');
    await expect(ada.getByRole('button', { name: 'Previous slide' })).toBeDisabled();

    await ada.getByRole('button', { name: 'Next slide' }).click();
    await expect(adaSlide).toHaveAttribute('data-slide-index', '2');
    await expect(adaSlide.getByTestId('slide-content').locator('img')).toBeVisible();

    await ada.getByRole('button', { name: 'Next slide' }).click();
    await expect(adaSlide).toHaveAttribute('data-slide-index', '3');
    await expect(adaSlide.getByTestId('slide-content')).toContainText('Built to fly.');
    await expect(adaSlide.getByTestId('slide-content').locator('img')).toBeVisible();

    await ada.getByRole('button', { name: 'Next slide' }).click();
    await expect(adaSlide).toHaveAttribute('data-slide-index', '4');
    await expect(adaSlide.getByTestId('slide-content')).toContainText('Zephyr kite');
    await expect(adaSlide.getByTestId('slide-content')).toContainText('Light and strong.');

    await ada.getByRole('button', { name: 'Next slide' }).click();
    await expect(adaSlide).toHaveAttribute('data-slide-index', '5');
    // The listing's title is the attendee's too.
    await expect(adaSlide.getByRole('heading', { name: 'All our kites' })).toBeVisible();
    await expect(adaSlide.getByTestId('room-product')).toHaveAttribute('aria-label', 'Zephyr kite');
    await expect(ada.getByRole('button', { name: 'Next slide' })).toBeDisabled();
  });

  await test.step("another attendee starts at the beginning and moves on alone: nobody's navigation is broadcast", async () => {
    const bob = await newPage(browser);
    await joinAsGuest(bob, 'Bob', { appointment: 'self-tour', waiting: false });
    const bobSlide = bob.getByTestId('slide');
    await expect(bobSlide).toHaveAttribute('data-slide-index', '1');
    await bob.getByRole('button', { name: 'Next slide' }).click();
    await expect(bobSlide).toHaveAttribute('data-slide-index', '2');
    await expect(adaSlide).toHaveAttribute('data-slide-index', '5');
    await ada.getByRole('button', { name: 'Previous slide' }).click();
    await expect(adaSlide).toHaveAttribute('data-slide-index', '4');
    await expect(bobSlide).toHaveAttribute('data-slide-index', '2');
    // A reload keeps one's own place.
    await ada.reload();
    await expect(ada.getByTestId('slide')).toHaveAttribute('data-slide-index', '4');
  });
});

test('an unknown, ended, closed or customers-only appointment says so before asking for a name', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const api = `${origin()}/api`;
  const { access_token: token } = (await (
    await request.post(`${api}/oauth/token`, {
      data: { grant_type: 'password', client_id: 'administration', scopes: 'write', username: 'admin', password: PASSWORD },
    })
  ).json()) as { access_token: string };
  const headers = { Authorization: `Bearer ${token}` };
  const created = async (entity: string, data: Record<string, unknown>): Promise<string> => {
    const response = await request.post(`${api}/${entity}?_response=basic`, { headers, data });
    expect(response.status(), await response.text()).toBe(200);
    return ((await response.json()) as { data: { id: string } }).data.id;
  };
  const presentationId = await created('dsr-presentation', { name: 'Checks', pages: [] });
  const appointment = (path: string, extra: Record<string, unknown> = {}) =>
    created('dsr-appointment', { name: path, presentationId, presentationPath: path, ...extra });
  const ended = await appointment('ended-show');
  for (const step of ['start', 'end']) {
    const response = await request.post(`${api}/_action/dsr/appointment/${ended}/${step}`, { headers });
    expect(response.ok(), await response.text()).toBe(true);
  }
  await appointment('closed-show', { accessibleFrom: new Date(Date.now() - 7_200_000).toISOString(), accessibleTo: new Date(Date.now() - 3_600_000).toISOString() });
  await appointment('customers-show', { attendeeRestrictionType: 'customer' });
  await appointment('open-show');

  const page = await newPage(browser);
  const name = page.getByLabel('Your name');

  await page.goto('/presentation/no-such-show/prejoin');
  await expect(page).toHaveURL(/\/presentation\/no-such-show\/not-found$/);
  await expect(page.getByText('This presentation could not be found.')).toBeVisible();
  await expect(name).toHaveCount(0);

  await page.goto('/presentation/ended-show/prejoin');
  await expect(page.getByRole('heading', { name: 'The presentation has ended' })).toBeVisible();
  await expect(name).toHaveCount(0);
  // The invitation asks for a name too: the same check first.
  await page.goto('/invitation/ended-show');
  await expect(page.getByRole('heading', { name: 'The presentation has ended' })).toBeVisible();
  await expect(name).toHaveCount(0);

  await page.goto('/presentation/closed-show/prejoin');
  await expect(page.getByText('This presentation is not accessible at this time.')).toBeVisible();
  await expect(name).toHaveCount(0);

  await page.goto('/presentation/customers-show/prejoin');
  await expect(page.getByText('This presentation is open to customers only.')).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/presentation/customers-show/login');
  await expect(main.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/presentation/customers-show/register');
  await expect(name).toHaveCount(0);

  // An open one asks.
  await page.goto('/presentation/open-show/prejoin');
  await expect(name).toBeVisible();
});
