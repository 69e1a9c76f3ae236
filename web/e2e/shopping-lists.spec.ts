import { expect, test } from '@playwright/test';
import { registerCustomer, TEXTS, unique } from './shop';

/**
 * Shopping lists in the account (issue #31, item 14): a customer creates and renames a list,
 * adds a product from its page, sees it in the account and puts the whole list into the
 * cart; the German page speaks German.
 */

test.describe.configure({ timeout: 120_000 });
const slowExpect = expect.configure({ timeout: 20_000 });

test('a customer keeps a shopping list: create, rename, add from the product page, all to the cart', async ({ page }) => {
  await registerCustomer(page, { firstName: 'Lisa', lastName: 'Liste', email: unique('lisa'), street: 'Listenweg 1', zipcode: '50667', city: 'Köln' });

  const lists = page.getByRole('region', { name: 'Shopping lists' });
  await slowExpect(lists.getByText('No shopping lists yet.', { exact: false })).toBeVisible();
  // Without a name the button is disabled and says why.
  await expect(lists.getByRole('button', { name: 'Create list' })).toBeDisabled();
  await expect(lists.getByRole('button', { name: 'Create list' })).toHaveAttribute('title', 'Enter a name first.');
  await lists.getByLabel('Name of a new list').fill('Weekend');
  await lists.getByRole('button', { name: 'Create list' }).click();
  const weekend = lists.getByRole('listitem', { name: 'Weekend' });
  await slowExpect(weekend).toBeVisible();
  await expect(weekend.getByText('This list is empty', { exact: false })).toBeVisible();

  await weekend.getByRole('button', { name: 'Rename Weekend' }).click();
  await lists.getByLabel('Name', { exact: true }).fill('Weekend trip');
  await lists.getByRole('button', { name: 'Save' }).click();
  const trip = lists.getByRole('listitem', { name: 'Weekend trip' });
  await slowExpect(trip.getByRole('heading', { name: 'Weekend trip' })).toBeVisible();

  // From the product page, onto the list.
  await page.goto('/Flannel-shirt/SR10003');
  await slowExpect(page.getByRole('combobox', { name: 'Shopping list' })).toHaveValue(/.+/);
  await expect(page.getByRole('combobox', { name: 'Shopping list' }).locator('option:checked')).toHaveText('Weekend trip');
  await page.getByRole('button', { name: 'Add to shopping list' }).click();
  await slowExpect(page.getByText('Added to “Weekend trip”.')).toBeVisible();

  await page.goto('/account');
  await slowExpect(trip.getByTestId('shopping-list-line')).toHaveText('Flannel shirt × 1');
  await trip.getByRole('button', { name: 'Add all to cart' }).click();
  await slowExpect(page.getByRole('button', { name: 'Shopping cart, 1 items' })).toBeVisible();

  // The German account page lists it under its German heading.
  await page.goto(`${TEXTS.de.prefix}/account`);
  const german = page.getByRole('region', { name: 'Einkaufslisten' });
  await slowExpect(german.getByRole('heading', { name: 'Weekend trip' })).toBeVisible();
  await expect(german.getByRole('button', { name: 'Alle in den Warenkorb' })).toBeEnabled();
});
