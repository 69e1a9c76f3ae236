import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { startServers, type Servers } from './global-setup';
import { submitBackofficeLogin } from './logins';

/**
 * The merchant backoffice's catalogue (issue 16) from an empty shop (DEMO=0): log in
 * (German and English), create a category, a product with two variants and an uploaded
 * picture, a promotion; the storefront shows the product (category page, search) and
 * takes the code; a CSV import with a bad row is refused naming the row, nothing
 * imported; a guide does not see Users.
 */

const PASSWORD = 'merchant-pass-1';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let servers: Servers;

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  servers = await startServers({ env: { DEMO: '0', ADMIN_PASSWORD: PASSWORD } });
});

test.afterAll(async () => {
  await servers?.teardown();
});

/** An Admin API call from the test (to check what the browser did). */
async function adminApi(path: string, body?: unknown, username = 'admin', password = PASSWORD): Promise<{ status: number; json: Record<string, unknown> }> {
  const token = (await (
    await fetch(`${servers.origin}/api/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', client_id: 'administration', username, password }),
    })
  ).json()) as { access_token: string };
  const response = await fetch(`${servers.origin}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${token.access_token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function logIn(page: Page, username: string, password: string, prefix = '') {
  await page.goto(`${servers.origin}${prefix}/admin`);
  await expect(page).toHaveURL(new RegExp(`${prefix}/admin/login$`));
  await submitBackofficeLogin(page, { german: prefix === '/de-DE', username, password, open: false });
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Backoffice' });

test('the storefront does not load the backoffice, which is one chunk of its own (app/admin-route.tsx)', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('.js')) scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(`${servers.origin}/`);
  await page.waitForLoadState('networkidle');
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((script) => script.includes('admin-route'))).toEqual([]);
  await page.goto(`${servers.origin}/admin/login`);
  await expect(page.getByRole('heading', { level: 1, name: 'Log in to the backoffice' })).toBeVisible();
  expect(scripts.filter((script) => script.includes('admin-route'))).toHaveLength(1);
});

test('the login and a form speak German and English, and wrong passwords are refused', async ({ page }) => {
  await logIn(page, 'admin', 'wrong-password', '/de-DE');
  await expect(page.getByRole('heading', { level: 1, name: 'Im Backoffice anmelden' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('Benutzername oder Passwort sind nicht korrekt.');
  await expectAccessible(page);
  await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(nav(page).getByRole('link', { name: 'Produkte' })).toBeVisible();

  // A German form: the API's violations at their fields, in German.
  await nav(page).getByRole('link', { name: 'Aktionen' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Aktionen' })).toBeVisible();
  await page.getByRole('button', { name: 'Anlegen' }).click();
  await expect(page.getByRole('alert')).toContainText('Bitte korrigieren Sie die markierten Felder.');
  await expect(page.getByLabel('Code')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);

  await page.goto(`${servers.origin}/admin/login`);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole('button', { name: 'Log out' }).click();
  await logIn(page, 'admin', 'wrong-password');
  await expect(page.getByRole('heading', { level: 1, name: 'Log in to the backoffice' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('The username or password is not correct.');
});

test('a merchant sets up a category, a product with variants and a picture, and a promotion the shop takes', async ({ page }) => {
  await logIn(page, 'admin', PASSWORD);
  await expect(nav(page).getByRole('link', { name: 'Users' })).toBeVisible();

  // Category
  await nav(page).getByRole('link', { name: 'Categories' }).click();
  await page.getByLabel('Name (English)').fill('Kites');
  await page.getByLabel('Name (German)').fill('Drachen');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('navigation', { name: 'Category tree' }).getByText('Kites', { exact: true })).toBeVisible();

  // Product: a violation first, then saved.
  await nav(page).getByRole('link', { name: 'Products' }).click();
  await page.getByRole('link', { name: 'New product' }).click();
  await page.getByLabel('Product number').fill('KITE-1');
  await page.getByLabel('Name (English)').fill('Zephyr kite');
  await page.getByLabel('Price (gross)', { exact: true }).fill('119');
  await page.getByLabel('List price (gross)').fill('99');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByLabel('List price (gross)')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('List price (gross)').fill('149');
  await page.getByLabel('Name (German)').fill('Zephyr-Drachen');
  await page.getByLabel('Description (English)').fill('Flies in light wind.');
  await page.getByLabel('Stock', { exact: true }).fill('10');
  await page.getByRole('checkbox', { name: 'Kites' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/admin\/products\/[0-9a-f]{32}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Edit product: Zephyr kite' })).toBeVisible();
  await expect(page.getByLabel('Name (German)')).toHaveValue('Zephyr-Drachen');
  await expectAccessible(page);
  // Keyboard: the skip link leads to the page, whose heading has the focus after navigation.
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();

  // Picture: a wrong type is refused in the browser, a lying file by the API, a PNG taken.
  const upload = page.getByLabel('Upload image (JPG, PNG or WebP, 5 MB at most)');
  await upload.setInputFiles({ name: 'kite.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(page.getByRole('alert')).toHaveText('Only JPG, PNG and WebP images can be uploaded.');
  // JPEG bytes under a .png name: the server's refusal, in the page's language.
  await upload.setInputFiles({ name: 'kite.png', mimeType: 'image/png', buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]) });
  await expect(page.getByRole('alert')).toHaveText("The file's content does not match its extension.");
  expect(((await adminApi('/media')).json as { total: number }).total).toBe(0);
  await upload.setInputFiles({ name: 'kite.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('button', { name: /^Remove image kite/ })).toBeVisible();
  await expect(page.locator('.admin-images img')).toHaveCount(1);

  // Variants from a new property group with two options.
  await page.getByLabel('Group name').fill('Kite size');
  await page.getByLabel('Options (comma separated)').fill('Small, Large');
  await page.getByRole('button', { name: 'Create group' }).click();
  const group = page.getByRole('group', { name: 'Kite size' });
  await group.getByRole('checkbox', { name: 'Small' }).check();
  await group.getByRole('checkbox', { name: 'Large' }).check();
  await page.getByRole('button', { name: 'Generate 2 variants' }).click();
  await expect(page.getByRole('link', { name: 'KITE-1.1' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'KITE-1.2' })).toBeVisible();
  // A variant keeps what it inherits when its own stock is saved.
  await page.getByRole('link', { name: 'KITE-1.2' }).click();
  await expect(page.getByLabel('Product number')).toHaveValue('KITE-1.2');
  await page.getByLabel('Stock', { exact: true }).fill('4');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved.').first()).toBeVisible();
  await page.getByRole('link', { name: 'Back' }).click();

  // The list finds it.
  await nav(page).getByRole('link', { name: 'Products' }).click();
  await page.getByLabel('Search products').fill('zephyr');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'KITE-1' })).toContainText('2');

  // Promotion
  await nav(page).getByRole('link', { name: 'Promotions' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Kite days');
  await page.getByLabel('Code', { exact: true }).fill('KITE15');
  await page.getByLabel('Discount', { exact: true }).fill('15');
  await page.getByLabel('Usage limit (empty: no limit)').fill('100');
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'KITE15' })).toContainText('15 %');

  // The storefront: the category page, search, detail with its variants, the code in the checkout.
  await page.goto(`${servers.origin}/`);
  const link = page.getByRole('banner').getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Kites', exact: true });
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Kites' })).toBeVisible();
  await expect(page.getByTestId('product-card').filter({ hasText: 'Zephyr kite' })).toBeVisible();
  await page.goto(`${servers.origin}/de-DE/search?search=zephyr`);
  await expect(page.getByTestId('product-card').filter({ hasText: 'Zephyr-Drachen' })).toBeVisible();
  await page.goto(`${servers.origin}/search?search=zephyr`);
  await expect(page.getByTestId('product-card').filter({ hasText: 'Zephyr kite' })).toBeVisible();
  await page.getByTestId('product-card').filter({ hasText: 'Zephyr kite' }).getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Zephyr kite' })).toBeVisible();
  const size = page.getByRole('group', { name: /^Kite size/ });
  await size.getByText('Large', { exact: true }).click();
  await expect(size.getByRole('radio', { name: 'Large' })).toBeChecked();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.getByRole('button', { name: /^Shopping cart, \d+ items$/ }).click();
  await page.getByRole('dialog').getByRole('link', { name: 'Proceed to checkout' }).click();
  await page.getByLabel('Promotion code').fill('KITE15');
  await page.getByRole('button', { name: 'Redeem' }).click();
  await expect(page.getByText('Promotion code KITE15 redeemed.')).toBeVisible();
});

test('a CSV import checks rows before and is refused whole when the server refuses one row', async ({ page }) => {
  await logIn(page, 'admin', PASSWORD);
  await nav(page).getByRole('link', { name: 'Import' }).click();
  const file = page.getByLabel('CSV file');

  // A row the browser can judge: shown with its line, no import possible.
  await file.setInputFiles({
    name: 'bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('productNumber,name,price_gross,categories\nIMP-1,First,10,Kites\nIMP-2,Second,cheap,Kites\n'),
  });
  const badRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '3' }) });
  await expect(badRow).toContainText('price_gross must be a number of 0 or more.');
  await expect(page.getByRole('button', { name: 'Import 2 products' })).toBeDisabled();

  // A row only the server can judge (a product number the shop has): refused, the line named, nothing imported.
  await file.setInputFiles({
    name: 'taken.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('productNumber,name,name_de,price_gross,stock,categories\nIMP-1,First,Erstes,10,5,Kites\nKITE-1,Clash,Konflikt,12,1,Kites\nIMP-3,Third,,8,2,\n'),
  });
  await expect(page.getByRole('row').filter({ hasText: 'IMP-3' })).toContainText('OK');
  await page.getByRole('button', { name: 'Import 3 products' }).click();
  await expect(page.getByRole('alert')).toContainText('The import was refused, nothing was imported.');
  await expect(page.getByRole('alert')).toContainText('Line 3, productNumber:');
  const none = await adminApi('/search-ids/product', { filter: [{ type: 'prefix', field: 'productNumber', value: 'IMP-' }] });
  expect(none.json.total).toBe(0);

  // The same file without the clash imports every row.
  await file.setInputFiles({
    name: 'good.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('productNumber,name,name_de,price_gross,stock,categories\nIMP-1,First,Erstes,10,5,Kites\nIMP-3,Third,,8,2,\n'),
  });
  await page.getByRole('button', { name: 'Import 2 products' }).click();
  await expect(page.getByText('2 products imported.')).toBeVisible();
  const imported = await adminApi('/search-ids/product', { filter: [{ type: 'prefix', field: 'productNumber', value: 'IMP-' }] });
  expect(imported.json.total).toBe(2);
});

test('an admin manages guide users, and a guide does not see Users', async ({ page }) => {
  await logIn(page, 'admin', PASSWORD);
  await nav(page).getByRole('link', { name: 'Users' }).click();
  const form = page.locator('form').filter({ has: page.getByRole('group', { name: 'New guide' }) });
  await form.getByLabel('Username').fill('gina');
  await form.getByLabel('First name').fill('Gina');
  await form.getByLabel('Last name').fill('Guide');
  await form.getByLabel('Password (8 characters at least)').fill('short');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByLabel('Password (8 characters at least)')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Password (8 characters at least)').fill('guide-pass-1');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'gina' })).toContainText('Active');

  await page.getByRole('button', { name: 'Reset password: gina' }).click();
  await page.getByRole('group', { name: 'New password for gina' }).getByLabel('Password (8 characters at least)').fill('guide-pass-2');
  await page.getByRole('group', { name: 'New password for gina' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The password has been changed.')).toBeVisible();
  expect((await adminApi('/product?limit=1', undefined, 'gina', 'guide-pass-2')).status).toBe(200);

  await page.getByRole('button', { name: 'Log out' }).click();
  await logIn(page, 'gina', 'guide-pass-2');
  await expect(nav(page).getByRole('link', { name: 'Products' })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Appointments' })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Users' })).toHaveCount(0);
  await page.goto(`${servers.origin}/admin/users`);
  await expect(page.getByRole('alert')).toHaveText('You are not allowed to do this.');
  await page.getByRole('button', { name: 'Log out' }).click();

  // Deactivated, the guide cannot log in.
  await logIn(page, 'admin', PASSWORD);
  await nav(page).getByRole('link', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'Deactivate: gina' }).click();
  await expect(page.getByRole('row').filter({ hasText: 'gina' })).toContainText('Inactive');
  await page.getByRole('button', { name: 'Log out' }).click();
  await logIn(page, 'gina', 'guide-pass-2');
  await expect(page.getByRole('alert')).toHaveText('The username or password is not correct.');
});
