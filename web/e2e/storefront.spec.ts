import { expect, test, type Page } from '@playwright/test';
import { fillRegistration, PASSWORD, registerCustomer, unique } from './shop';

/** The demo shop of the embedded engine (CONTRACT.md): categories, products with variants, both languages. */

const header = (page: Page) => page.getByRole('banner');
const mainNav = (page: Page) => header(page).getByRole('navigation', { name: /Main navigation|Hauptnavigation/ });
const productCards = (page: Page) => page.getByTestId('product-card');

test.describe('the shop in English', () => {
  test('the home page shows the categories and content', async ({ page }) => {
    await page.goto('/');
    await expect(mainNav(page).getByRole('link', { name: 'Clothing', exact: true })).toBeVisible();
    await expect(page.locator('main .cms-page')).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');

    // The favourites: one heading (the text block's), a row of cards that scrolls with arrows.
    await expect(page.getByRole('heading', { name: 'Our favourites this season' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Favourites', exact: true })).toHaveCount(0);
    await expect(productCards(page)).toHaveCount(8);
    // The row comes before the image slider, whose arrows have the same names.
    const previous = page.getByRole('button', { name: 'Previous slide' }).first();
    await expect(previous).toHaveAttribute('aria-disabled', 'true');
    await page.getByRole('button', { name: 'Next slide' }).first().click();
    await expect(previous).toHaveAttribute('aria-disabled', 'false');

    // Category teasers: a word-free picture and a heading linking to the category.
    await page.getByRole('heading', { name: 'Shoes' }).getByRole('link').click();
    await expect(page).toHaveURL(/\/Shoes\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Shoes' })).toBeVisible();
  });

  test('browse a category, filter and sort', async ({ page }) => {
    await page.goto('/');
    await mainNav(page).getByRole('link', { name: 'Clothing', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Clothing' })).toBeVisible();
    await expect(productCards(page).first()).toBeVisible();

    const count = page.locator('.listing__count');
    const before = Number((await count.innerText()).match(/\d+/)?.[0]);
    expect(before).toBeGreaterThan(1);

    // Filter by a colour: the tag shows, the URL carries it, fewer products remain.
    const filters = page.getByRole('complementary', { name: 'Filters' });
    if (!(await filters.isVisible())) await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await filters.getByRole('checkbox', { name: 'Red' }).click();
    await expect(page).toHaveURL(/properties=[0-9a-f]{32}/);
    await expect(page.getByRole('button', { name: 'Remove filter: Red' })).toBeVisible();
    await expect.poll(async () => Number((await count.innerText()).match(/\d+/)?.[0])).toBeLessThan(before);

    // Sort by price, lowest first: prices go up.
    await page.getByRole('button', { name: 'Remove filter: Red' }).click();
    await expect(page).not.toHaveURL(/properties=/);
    await page.getByLabel('Sort by').selectOption('price-asc');
    await expect(page).toHaveURL(/order=price-asc/);
    await expect
      .poll(async () => {
        const prices = await page.locator('.product-card .price:not(.price--list)').allInnerTexts();
        const numbers = prices.map((text) => Number(text.replace(/[^0-9.]/g, '')));
        return numbers.length > 1 && numbers.every((value, index) => index === 0 || value >= numbers[index - 1]!);
      })
      .toBe(true);
  });

  test('pages through a listing of 10 products per page', async ({ page }) => {
    await page.goto('/');
    await mainNav(page).getByRole('link', { name: 'Clothing', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Clothing' })).toBeVisible();
    // Clothing holds more than 10 products (demo data): two pages.
    const pagination = page.getByRole('navigation', { name: 'Pages' });
    await expect(pagination).toBeVisible();
    await expect(productCards(page)).toHaveCount(10);
    await pagination.getByRole('button', { name: 'Page 2' }).click();
    await expect(page).toHaveURL(/p=2/);
    await expect(pagination.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  test('open a product and switch its variant', async ({ page }) => {
    await page.goto('/Flannel-shirt/SR10003');
    await expect(page.getByRole('heading', { level: 1, name: 'Flannel shirt' })).toBeVisible();
    await expect(page.getByTestId('product-price')).toContainText('€');
    await expect(page.getByText('Prices incl. VAT plus shipping costs')).toBeVisible();
    await expect(page.getByTestId('deliverability')).toBeVisible();
    const number = page.getByText(/^Product number: /);
    const before = await number.innerText();

    const size = page.getByRole('group', { name: /^Size/ });
    const unchecked = size.getByRole('radio', { checked: false }).first();
    const label = await unchecked.evaluate((input) => (input.parentElement?.textContent ?? '').trim());
    await size.getByText(label, { exact: true }).click();
    await expect(page).toHaveURL(/\/(detail\/[0-9a-f]{32}|Flannel-shirt\/SR10003\.\d+)$/);
    await expect(number).not.toHaveText(before);
    await expect(size.getByRole('radio', { name: label })).toBeChecked();

    await page.getByRole('tab', { name: 'Specifications' }).click();
    await expect(page.getByRole('tabpanel')).toContainText('Material');
  });

  test('quick view opens in a modal and Escape closes it', async ({ page }) => {
    await page.goto('/');
    await mainNav(page).getByRole('link', { name: 'Clothing', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Clothing' })).toBeVisible();
    const card = productCards(page).first();
    await card.hover();
    await card.getByRole('button', { name: /^Quick view/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Quick view' });
    await expect(dialog.getByRole('button', { name: 'Add to cart' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  });

  test('search with suggestions and a results page', async ({ page }) => {
    await page.goto('/');
    const search = header(page).getByRole('combobox', { name: 'Search products' });
    await search.fill('shirt');
    const suggestions = page.getByRole('listbox', { name: 'Suggestions' });
    await expect(suggestions.getByRole('option').first()).toBeVisible();
    await search.press('Enter');
    await expect(page).toHaveURL(/\/search\?search=shirt$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Results for “shirt”' })).toBeVisible();
    await expect(productCards(page).first()).toBeVisible();
    await productCards(page).first().getByRole('link').click();
    await expect(page.getByRole('button', { name: 'Add to cart' })).toBeVisible();
  });

  test('an unknown path shows the 404 page', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByText('This page could not be found.')).toBeVisible();
    await expect(page).toHaveTitle(/Page Not Found/);
    await expect(mainNav(page)).toBeVisible();
  });

  test('a shop that does not answer gets the matching error page', async ({ page }) => {
    await page.route('**/store-api/seo-url', (route) => route.fulfill({ status: 503, json: { errors: [] } }));
    await page.goto('/Clothing/');
    await expect(page.getByText('Server is not available. Please try again in few seconds.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toBeVisible();

    await page.unroute('**/store-api/seo-url');
    await page.route('**/store-api/seo-url', (route) => route.fulfill({ status: 502, body: 'bad gateway' }));
    await page.goto('/Shoes/');
    await expect(page.getByText('Server could not complete the request.')).toBeVisible();
  });
});

test.describe('the shop in German', () => {
  test('browse, open a product and search', async ({ page, context }) => {
    await page.goto('/de-DE');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
    const cookie = (await context.cookies()).find(({ name }) => name === 'locale');
    expect(cookie?.value).toBe('de-DE');
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 86_400);

    await expect(page.getByRole('heading', { name: 'Unsere Lieblinge der Saison' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Schuhe' }).getByRole('link')).toHaveAttribute('href', '/de-DE/Schuhe/');

    await mainNav(page).getByRole('link', { name: 'Kleidung', exact: true }).click();
    await expect(page).toHaveURL(/\/de-DE\//);
    await expect(page.getByRole('heading', { level: 1, name: 'Kleidung' })).toBeVisible();
    await expect(page.getByLabel('Sortieren nach')).toBeVisible();
    await productCards(page).first().getByRole('link').click();
    await expect(page.getByRole('button', { name: 'In den Warenkorb' })).toBeVisible();
    await expect(page.getByText('Preise inkl. MwSt. zzgl. Versandkosten')).toBeVisible();

    const search = header(page).getByRole('combobox', { name: 'Produkte suchen' });
    await search.fill('Hemd');
    await expect(page.getByRole('listbox', { name: 'Vorschläge' }).getByRole('option').first()).toBeVisible();
    await search.press('Enter');
    await expect(page).toHaveURL(/\/de-DE\/search\?search=Hemd$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Ergebnisse für „Hemd“' })).toBeVisible();
  });

  test('the language switch keeps the page, and menu, breadcrumbs and links follow at once', async ({ page }) => {
    await page.goto('/Clothing/');
    await expect(page.getByRole('heading', { level: 1, name: 'Clothing' })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Clothing', exact: true })).toBeVisible();
    await header(page).getByLabel('Language').selectOption('de-DE');
    // The category's German seo path; the menu is German at once, its links lead to German pages (issue #31, item 6).
    await expect(page).toHaveURL(/\/de-DE\/Kleidung\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Kleidung' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Brotkrümelnavigation' })).toContainText('Kleidung');
    await expect(mainNav(page).getByRole('link', { name: 'Kleidung', exact: true })).toBeVisible();
    await expect(mainNav(page).getByRole('link', { name: 'Clothing', exact: true })).toHaveCount(0);
    await mainNav(page).getByRole('link', { name: 'Schuhe', exact: true }).click();
    await expect(page).toHaveURL(/\/de-DE\/Schuhe\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Schuhe' })).toBeVisible();

    // A product keeps its seo path: the German one after the switch, the English one back.
    await page.goto('/Flannel-shirt/SR10003');
    await expect(page.getByRole('button', { name: 'Add to cart' })).toBeVisible();
    await header(page).getByLabel('Language').selectOption('de-DE');
    await expect(page).toHaveURL(/\/de-DE\/Flanellhemd\/SR10003$/);
    await expect(page.getByRole('button', { name: 'In den Warenkorb' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Brotkrümelnavigation' })).toContainText('Flanellhemd');
    await header(page).getByLabel('Sprache').selectOption('en-US');
    await expect(page).toHaveURL(/\/Flannel-shirt\/SR10003$/);
    await expect(page.getByRole('button', { name: 'Add to cart' })).toBeVisible();
  });

  test('the 404 page speaks German', async ({ page }) => {
    await page.goto('/de-DE/gibt/es/nicht');
    await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible();
    await expect(page.getByText('Die Seite konnte nicht gefunden werden.')).toBeVisible();
  });
});

test.describe('cart and wishlist', () => {
  test('add to cart, change the quantity and redeem SALESROOM10', async ({ page }) => {
    await page.goto('/Flannel-shirt/SR10003');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByText('Flannel shirt is in your cart.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Shopping cart, 1 items' })).toBeVisible();

    await page.getByRole('button', { name: 'Shopping cart, 1 items' }).click();
    const sidebar = page.getByRole('dialog', { name: 'Shopping cart' });
    await expect(sidebar.getByTestId('cart-item')).toHaveCount(1);
    await sidebar.getByRole('link', { name: 'View cart' }).click();

    await expect(page).toHaveURL(/\/checkout\/cart$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Shopping cart' })).toBeVisible();
    const total = page.getByTestId('cart-total');
    const single = await total.innerText();
    await page.getByRole('button', { name: 'More of Flannel shirt' }).click();
    await expect(page.getByRole('group', { name: 'Quantity of Flannel shirt' })).toContainText('2');
    await expect(total).not.toHaveText(single);
    const double = Number((await total.innerText()).replace(/[^0-9.]/g, ''));

    // The shop's error for an unknown code in words (issue #14, item 13).
    await page.getByLabel('Promotion code').fill('NOPE');
    await page.getByRole('button', { name: 'Redeem' }).click();
    await expect(page.getByText('The promotion code "NOPE" is not valid.')).toBeVisible();
    await page.getByLabel('Promotion code').fill('SALESROOM10');
    await page.getByRole('button', { name: 'Redeem' }).click();
    await expect(page.getByText('Promotion code SALESROOM10 redeemed.')).toBeVisible();
    await expect.poll(async () => Number((await total.innerText()).replace(/[^0-9.]/g, ''))).toBeCloseTo(double * 0.9, 1);
  });

  test('a guest keeps a wishlist in the browser', async ({ page }) => {
    await page.goto('/Flannel-shirt/SR10003');
    await page.getByRole('button', { name: 'Add Flannel shirt to the wishlist' }).click();
    await expect(page.getByRole('link', { name: 'Wishlist, 1 items' })).toBeVisible();
    await page.reload();
    await page.getByRole('link', { name: 'Wishlist, 1 items' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Wishlist' })).toBeVisible();
    await expect(page.getByTestId('product-card')).toHaveCount(1);
    // Emptied, the page says so and leads back into the shop.
    await page.getByRole('button', { name: 'Remove Flannel shirt from the wishlist' }).click();
    await expect(page.getByText('Your wishlist is empty.')).toBeVisible();
    await page.getByRole('link', { name: 'Continue shopping' }).click();
    await expect(page.locator('main .cms-page')).toBeVisible();
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the menu drawer leads to a category whose filters open in a drawer', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('navigation', { name: 'Main navigation' }).filter({ has: page.getByRole('button', { name: 'Close menu' }) });
    await drawer.getByRole('link', { name: 'Shirts' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Shirts' })).toBeVisible();
    await expect(drawer).toHaveCount(0);

    const filters = page.getByRole('complementary', { name: 'Filters' });
    await expect(filters).toBeHidden();
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await filters.getByRole('checkbox', { name: 'Blue' }).click();
    await expect(page).toHaveURL(/properties=/);
    await page.keyboard.press('Escape');
    await expect(filters).toBeHidden();
    await expect(page.getByRole('button', { name: 'Remove filter: Blue' })).toBeVisible();
  });
});

test.describe('account', () => {
  test('register, see the account, log out and log in again', async ({ page }) => {
    const email = unique('erika');
    await page.goto('/account/register');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel('Email address', { exact: true })).toHaveAccessibleDescription('Input required');

    await fillRegistration(page, { firstName: 'Erika', lastName: 'Mustermann', email, street: 'Musterweg 1', zipcode: '10117', city: 'Berlin' });
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription('This field should be at least 8 characters long.');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    // The privacy consent is required.
    await page.getByLabel(/I have read the privacy policy/).uncheck();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByLabel(/I have read the privacy policy/)).toHaveAccessibleDescription('Please accept the privacy policy to create an account.');
    await expect(page).toHaveURL(/\/account\/register$/);
    await page.getByLabel(/I have read the privacy policy/).check();
    await page.getByRole('button', { name: 'Create account' }).click();

    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Hello Erika Mustermann' })).toBeVisible();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByText('You are logged out.')).toBeVisible();

    await page.goto('/account');
    await expect(page).toHaveURL(/\/account\/login\?redirect=%2Faccount$/);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('The email address or password is not correct.');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Hello Erika Mustermann' })).toBeVisible();
  });

  test('the German login speaks German', async ({ page }) => {
    await page.goto('/de-DE/account/login');
    await page.getByLabel('E-Mail-Adresse').fill('demo@example.com');
    await page.getByLabel('Passwort').fill('salesroom');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page).toHaveURL(/\/de-DE\/account$/);
    await expect(page.getByRole('button', { name: 'Abmelden' })).toBeVisible();
  });
});

test('a customer adds, edits, uses and deletes addresses in a modal', async ({ page }) => {
  await registerCustomer(page, { firstName: 'Alma', lastName: 'Mustermann', email: unique('alma'), street: 'Musterweg 1', zipcode: '10117', city: 'Berlin' });
  const addresses = page.getByTestId('address');
  await expect(addresses).toHaveCount(1);

  await page.getByRole('button', { name: 'Add address' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add address' });
  await dialog.getByRole('button', { name: 'Save address' }).click();
  await expect(dialog.getByLabel('City')).toHaveAccessibleDescription('Input required');
  await dialog.getByLabel('First name').fill('Alma');
  await dialog.getByLabel('Last name').fill('Mustermann');
  await dialog.getByLabel('Street and house number').fill('Zweitweg 2');
  await dialog.getByLabel('Postal code').fill('20095');
  await dialog.getByLabel('City').fill('Hamburg');
  const state = dialog.getByLabel('State');
  if (await state.count()) await state.selectOption({ index: 1 });
  await dialog.getByRole('button', { name: 'Save address' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(addresses).toHaveCount(2);

  const second = addresses.filter({ hasText: 'Zweitweg 2' });
  await second.getByRole('button', { name: 'Edit address: Zweitweg 2' }).click();
  await page.getByRole('dialog', { name: 'Edit address' }).getByLabel('City').fill('Hamburg-Altona');
  await page.getByRole('dialog', { name: 'Edit address' }).getByRole('button', { name: 'Save address' }).click();
  await expect(second).toContainText('Hamburg-Altona');

  await second.getByRole('button', { name: 'Use for shipping' }).click();
  await expect(second).toContainText('Default shipping address');
  await expect(second.getByRole('button', { name: /^Delete/ })).toHaveCount(0);

  await addresses.filter({ hasText: 'Musterweg 1' }).getByRole('button', { name: 'Use for shipping' }).click();
  await expect(second.getByRole('button', { name: 'Delete: Zweitweg 2' })).toBeVisible();
  await second.getByRole('button', { name: 'Delete: Zweitweg 2' }).click();
  await expect(addresses).toHaveCount(1);
});
