import { expect as baseExpect, test } from '@playwright/test';
import { emptyShop, utcInput } from './empty-shop';
import { fillRegistration, placeOrder, TEXTS, unique } from './shop';
import { guideLogsIn, submitBackofficeLogin } from './logins';

/*
 * Issue 16's "done when", as one merchant's day, all in the browser from an empty data
 * directory (DEMO=0; the admin password comes from ADMIN_PASSWORD, as `make up` prints
 * it): the merchant sets up a category, a product with two variants and a picture, a
 * promotion code, a presentation with three slides, a guide user and an appointment run
 * by that guide, and invites an attendee (the mail with its calendar file is in the
 * outbox). The guide runs the appointment; the attendee joins from the invitation link,
 * puts a variant into the cart from the room and buys it with the code (the discount is
 * on the order). Last, a CSV import with one bad row is refused with that row named.
 * The only shortcuts: the outbox and the password are read from the servers' side.
 */

const PASSWORD = 'journey-admin-pass';
const GUIDE_PASSWORD = 'journey-guide-pass';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A debug build on a busy machine: pages may take a while. */
const expect = baseExpect.configure({ timeout: 15_000 });

const { newPage, origin, mailsTo } = emptyShop(PASSWORD);

/** The invitation link of a mail (its plain-text part; quoted-printable soft breaks undone). */
function invitationLink(mail: string): string {
  const text = mail.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const link = /https?:\/\/[^\s"<>]+\/invitation\/[a-z0-9-]+\?token=[0-9a-f]+/.exec(text)?.[0];
  if (!link) throw new Error(`no invitation link in the mail:\n${mail}`);
  return link;
}

test('from an empty shop a merchant sets up catalogue, presentation and appointment, and a guide sells in the room', async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await newPage(browser);
  const nav = admin.getByRole('navigation', { name: 'Backoffice' });

  await test.step('log in to the backoffice with the printed admin password', async () => {
    await admin.goto('/admin');
    await expect(admin).toHaveURL(/\/admin\/login$/);
    await submitBackofficeLogin(admin, { password: PASSWORD, open: false });
    await expect(nav.getByRole('link', { name: 'Products' })).toBeVisible();
  });

  await test.step('a category', async () => {
    await nav.getByRole('link', { name: 'Categories' }).click();
    await admin.getByLabel('Name (English)').fill('Kites');
    await admin.getByLabel('Name (German)').fill('Drachen');
    await admin.getByRole('button', { name: 'Create' }).click();
    await expect(admin.getByRole('navigation', { name: 'Category tree' }).getByText('Kites', { exact: true })).toBeVisible();
  });

  await test.step('a product with a picture and two variants', async () => {
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

    await admin.getByLabel('Upload image (JPG, PNG or WebP, 5 MB at most)').setInputFiles({ name: 'zephyr.png', mimeType: 'image/png', buffer: PNG });
    await expect(admin.getByRole('button', { name: /^Remove image zephyr/ })).toBeVisible();

    await admin.getByLabel('Group name').fill('Kite size');
    await admin.getByLabel('Options (comma separated)').fill('Small, Large');
    await admin.getByRole('button', { name: 'Create group' }).click();
    const group = admin.getByRole('group', { name: 'Kite size' });
    await group.getByRole('checkbox', { name: 'Small' }).check();
    await group.getByRole('checkbox', { name: 'Large' }).check();
    await admin.getByRole('button', { name: 'Generate 2 variants' }).click();
    await expect(admin.getByRole('link', { name: 'KITE-1.1' })).toBeVisible();
    await expect(admin.getByRole('link', { name: 'KITE-1.2' })).toBeVisible();
  });

  await test.step('a promotion with a code', async () => {
    await nav.getByRole('link', { name: 'Promotions' }).click();
    await admin.getByLabel('Name', { exact: true }).fill('Kite days');
    await admin.getByLabel('Code', { exact: true }).fill('KITE20');
    await admin.getByLabel('Discount', { exact: true }).fill('20');
    await admin.getByRole('button', { name: 'Create' }).click();
    await expect(admin.getByRole('row').filter({ hasText: 'KITE20' })).toContainText('20 %');
  });

  await test.step('a presentation with three slides', async () => {
    await nav.getByRole('link', { name: 'Presentations' }).click();
    await admin.getByRole('link', { name: 'New presentation' }).click();
    await admin.getByLabel('Name', { exact: true }).fill('Kite show');
    const kind = admin.getByLabel('Kind of the new slide');
    const slides = admin.getByTestId('admin-slide');

    await kind.selectOption('productListing');
    await admin.getByRole('button', { name: 'Add slide' }).click();
    await slides.nth(0).getByLabel('Title (English)').fill('All our kites');
    await slides.nth(0).getByLabel('Or all products of a category').selectOption({ label: 'Kites' });
    // The guide's note, in rich text.
    await slides.nth(0).getByRole('textbox', { name: 'Notes for the guide (English)' }).click();
    await admin.keyboard.type('Mention the code ');
    await slides.nth(0).getByRole('toolbar', { name: 'Formatting: Notes for the guide (English)' }).getByRole('button', { name: 'Bold' }).click();
    await admin.keyboard.type('KITE20');

    await kind.selectOption('productDetail');
    await admin.getByRole('button', { name: 'Add slide' }).click();
    await slides.nth(1).getByLabel('Title (English)').fill('The Zephyr up close');
    await slides.nth(1).getByLabel('Find the product').fill('zephyr');
    await slides.nth(1).getByRole('button', { name: 'Choose Zephyr kite (KITE-1)' }).click();

    await kind.selectOption('productListing');
    await admin.getByRole('button', { name: 'Add slide' }).click();
    await slides.nth(2).getByLabel('Title (English)').fill('Take one home');
    await slides.nth(2).getByLabel('Add a product').fill('zephyr');
    await slides.nth(2).getByRole('button', { name: 'Choose Zephyr kite (KITE-1)' }).click();

    await admin.getByRole('button', { name: 'Create' }).click();
    await expect(admin.getByRole('heading', { name: 'Presentation: Kite show', level: 1 })).toBeVisible();
    await expect(slides).toHaveCount(3);
  });

  await test.step('a guide user', async () => {
    await nav.getByRole('link', { name: 'Users' }).click();
    const form = admin.locator('form').filter({ has: admin.getByRole('group', { name: 'New guide' }) });
    await form.getByLabel('Username').fill('gina');
    await form.getByLabel('First name').fill('Gina');
    await form.getByLabel('Last name').fill('Guide');
    await form.getByLabel('Password (8 characters at least)').fill(GUIDE_PASSWORD);
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(admin.getByRole('row').filter({ hasText: 'gina' })).toContainText('Active');
  });

  await test.step('an appointment run by that guide', async () => {
    await nav.getByRole('link', { name: 'Appointments' }).click();
    await admin.getByRole('link', { name: 'New appointment' }).click();
    await admin.getByLabel('Name (English)').fill('Kites live');
    await admin.getByLabel('Name (German)').fill('Drachen live');
    await admin.getByLabel('Presentation').selectOption({ label: 'Kite show' });
    await admin.getByLabel('Guide', { exact: true }).selectOption({ label: 'Gina Guide' });
    await admin.getByLabel('Path (part of the invitation link)').fill('kites-live');
    await admin.getByLabel('Time zone').selectOption('UTC');
    await admin.getByLabel('Start', { exact: true }).fill(utcInput(-5));
    await admin.getByLabel('End', { exact: true }).fill(utcInput(120));
    await admin.getByRole('button', { name: 'Create' }).click();
    await expect(admin.getByRole('heading', { name: 'Appointment: Kites live', level: 1 })).toBeVisible();
    await expect(admin.getByLabel('Invitation link', { exact: true })).toHaveValue(`${origin()}/invitation/kites-live`);
  });

  let invitation = '';
  await test.step('invite an attendee: the mail with its calendar file is in the outbox', async () => {
    await admin.getByLabel('E-mail addresses (separated by commas or lines)').fill('ada@example.com');
    await admin.getByRole('button', { name: 'Send invitations' }).click();
    await expect(admin.getByRole('status').filter({ hasText: 'One invitation sent.' })).toBeVisible();
    await expect(admin.getByRole('cell', { name: 'ada@example.com' })).toBeVisible();
    const mails = await mailsTo('ada@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('Content-Type: text/calendar');
    expect(mails[0]).toContain('filename="invitation.ics"');
    invitation = invitationLink(mails[0]!);
    expect(new URL(invitation).pathname).toBe('/invitation/kites-live');
  });

  const ada = await newPage(browser);
  await test.step('the attendee accepts from the invitation link and waits for the start', async () => {
    await ada.goto(invitation);
    await expect(ada.getByRole('heading', { level: 1, name: 'You are invited to a live presentation' })).toBeVisible({ timeout: 20_000 });
    await ada.getByLabel('Your name').fill('Ada Attendee');
    await ada.getByLabel(/privacy policy/).check();
    await ada.getByRole('button', { name: 'Yes, I will join' }).click();
    await expect(ada.getByRole('status')).toHaveText('Thank you: you accepted the invitation.');
    await ada.getByRole('link', { name: 'Join the presentation' }).click();
    await expect(ada).toHaveURL(/\/presentation\/kites-live\/waiting$/);
  });

  const guide = await newPage(browser);
  await test.step('the guide logs in to the room and starts it; the attendee sees the category slide', async () => {
    await guideLogsIn(guide, { appointment: 'kites-live', username: 'gina', password: GUIDE_PASSWORD });
    await guide.getByRole('button', { name: 'Start presentation' }).click();
    await guide.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();
    await expect(guide.getByTestId('presentation-phase')).toHaveText('Live');

    await expect(ada).toHaveURL(/\/presentation\/kites-live$/);
    const slide = ada.getByTestId('slide');
    await expect(slide).toHaveAttribute('data-slide-index', '1');
    await expect(slide.getByTestId('room-product')).toHaveAttribute('aria-label', 'Zephyr kite');
    // The guide reads the slide's note as the merchant formatted it.
    await expect(guide.getByRole('region', { name: 'Slide notes' }).locator('strong')).toHaveText('KITE20');
    await guide.getByRole('button', { name: 'Next slide' }).click();
    await expect(slide).toHaveAttribute('data-slide-index', '2');
    await guide.getByRole('button', { name: 'Next slide' }).click();
    await expect(slide).toHaveAttribute('data-slide-index', '3');
  });

  await test.step('the attendee puts the large kite into the cart from the room', async () => {
    const product = ada.getByTestId('slide').getByTestId('room-product').first();
    await product.getByRole('button', { name: 'Details of Zephyr kite' }).click();
    const modal = ada.getByRole('dialog', { name: 'Zephyr kite' });
    await modal.getByLabel('Variant').selectOption({ label: 'Kite size: Large' });
    await modal.getByRole('button', { name: 'Add to cart' }).click();
    await expect(modal.getByText('Zephyr kite is in your cart.')).toBeVisible();
    await ada.keyboard.press('Escape');
    await expect(ada.getByRole('button', { name: 'Cart (1)' })).toBeVisible();
  });

  await test.step('and buys it with the code: the discount is on the order', async () => {
    await ada.getByRole('button', { name: 'Cart (1)' }).click();
    const cart = ada.getByRole('region', { name: 'Cart', exact: true });
    const [checkout] = await Promise.all([
      ada.context().waitForEvent('page'),
      cart.getByRole('link', { name: 'Go to checkout (opens in a new tab)' }).click(),
    ]);
    await expect(checkout).toHaveURL(/\/checkout$/);
    await expect(checkout.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
    await checkout.getByLabel('Promotion code').fill('KITE20');
    await checkout.getByRole('button', { name: 'Redeem' }).click();
    await expect(checkout.getByText('Promotion code KITE20 redeemed.')).toBeVisible();
    await checkout.getByRole('tab', { name: 'New customer' }).click();
    await checkout.getByLabel('Do not create a customer account (guest order)').check();
    await fillRegistration(
      checkout,
      { firstName: 'Ada', lastName: 'Attendee', email: unique('ada'), street: 'Windweg 1', zipcode: '20095', city: 'Hamburg' },
      TEXTS.en,
      { guest: true },
    );
    await checkout.getByRole('button', { name: 'Continue as guest' }).click();
    await expect(checkout.getByTestId('billing-address')).toContainText('Windweg 1', { timeout: 20_000 });
    await expect(checkout.getByTestId('cart-discount')).toContainText('-');
    await expect(checkout.getByRole('complementary', { name: 'Order summary' })).toContainText('Kite size: Large');
    await placeOrder(checkout, TEXTS.en, TEXTS.en.invoice);
    await expect(checkout.getByRole('heading', { level: 1, name: 'Thank you for your order!' })).toBeVisible();
    await expect(checkout.getByTestId('order-line-item').filter({ hasText: 'Zephyr kite' })).toContainText('€100.00');
    await expect(checkout.getByTestId('order-line-item').filter({ hasText: /[-−]\s?€?\s?20/ })).toHaveCount(1);
    // The room went on meanwhile.
    await expect(ada.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  });

  await test.step('a CSV import with one bad row is refused with that row named, nothing imported', async () => {
    await nav.getByRole('link', { name: 'Import' }).click();
    // The file input is enabled once the shop's categories and manufacturers are loaded.
    await expect(admin.getByLabel('CSV file')).toBeEnabled();
    await admin.getByLabel('CSV file').setInputFiles({
      name: 'kites.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('productNumber,name,name_de,price_gross,stock,categories\nKITE-2,Breeze kite,Brise-Drachen,49,5,Kites\nKITE-1,Clash,Konflikt,12,1,Kites\n'),
    });
    await admin.getByRole('button', { name: 'Import 2 products' }).click();
    await expect(admin.getByRole('alert')).toContainText('The import was refused, nothing was imported.');
    await expect(admin.getByRole('alert')).toContainText('Line 3, productNumber:');
    await nav.getByRole('link', { name: 'Products' }).click();
    await admin.getByLabel('Search products').fill('breeze');
    await admin.getByRole('button', { name: 'Search' }).click();
    await expect(admin.getByText('Nothing found.')).toBeVisible();
  });
});
