import { expect, test, type Page } from '@playwright/test';
import { ownServers, startWithGuests } from './room';

/*
 * Live engagement (#19): one guide and two guests chat both ways, the guide deletes a
 * message for everyone and times a guest out, reactions arrive, and hostile names and
 * messages are shown as text (or refused for their length). Fresh servers: the guide
 * starts the appointment.
 */

const { newPage } = ownServers();

async function say(page: Page, text: string): Promise<void> {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
}

const messages = (page: Page) => page.getByTestId('chat-messages');

test('a guide and two guests chat, moderate and react', async ({ browser }) => {
  test.setTimeout(180_000);
  const hostileName = '<img src=x onerror="window.__pwned=1">\u202eEve';

  const {
    guide,
    guests: [ada, eve],
  } = await startWithGuests(browser, newPage, 'Ada Guest', hostileName);

  await test.step('chat both ways', async () => {
    await say(ada, 'Hello from Ada');
    for (const page of [guide, ada, eve]) await expect(messages(page)).toContainText('Hello from Ada');
    await say(guide, 'Welcome, everyone!');
    for (const page of [ada, eve]) await expect(messages(page)).toContainText('Welcome, everyone!');
  });

  await test.step('hostile names and messages are text, a 10 kB message is refused for its length', async () => {
    const script = '<script>window.__pwned=1</script> see https://example.com';
    await say(eve, script);
    for (const page of [guide, ada]) {
      const line = messages(page).getByTestId('chat-message').filter({ hasText: '<script>' });
      await expect(line.getByTestId('chat-name')).toHaveText(hostileName);
      await expect(line).toContainText(script);
      await expect(line.locator('script, img')).toHaveCount(0);
    }
    // Links are not clickable for guests (the guide did not allow them); the guide's are.
    await expect(messages(ada).getByRole('link')).toHaveCount(0);
    await expect(messages(guide).getByRole('link', { name: 'https://example.com' })).toBeVisible();
    expect(await ada.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    await say(ada, 'x'.repeat(10 * 1024));
    await expect(ada.getByTestId('chat-error')).toHaveText('Your message is too long (at most 500 characters).');
  });

  await test.step('a deletion disappears for everyone', async () => {
    await messages(guide).getByTestId('chat-message').filter({ hasText: 'Hello from Ada' }).getByRole('button', { name: 'Delete' }).click();
    for (const page of [guide, ada, eve]) await expect(messages(page)).not.toContainText('Hello from Ada');
  });

  await test.step('a timed-out guest is refused with the message shown', async () => {
    await messages(guide).getByTestId('chat-message').filter({ hasText: '<script>' }).getByRole('button', { name: 'Time out 5 min' }).click();
    await expect(eve.getByTestId('chat-moderated')).toBeVisible();
    await say(eve, 'Am I still here?');
    await expect(eve.getByTestId('chat-error')).toHaveText('The guide has timed you out of the chat for a few minutes.');
    await expect(messages(guide)).not.toContainText('Am I still here?');
    await say(ada, 'Ada may still talk');
    await expect(messages(guide)).toContainText('Ada may still talk');
  });

  await test.step('reactions arrive as sums', async () => {
    for (let i = 0; i < 3; i++) await ada.getByTestId('react-heart').click();
    await eve.getByTestId('react-fire').click();
    await expect(guide.getByTestId('reaction-total-heart')).toHaveText('3');
    await expect(guide.getByTestId('reaction-total-fire')).toHaveText('1');
    await expect(eve.getByTestId('reaction-total-heart')).toHaveText('3');
  });
});
