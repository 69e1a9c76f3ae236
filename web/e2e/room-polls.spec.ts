import { expect, test, type Page } from '@playwright/test';
import { ownServers, startWithGuests } from './room';

/*
 * Polls (#19 item 3): a guide creates and opens a poll, two guests vote (one changes her
 * vote), the guide shows the results and closes the poll: the same counts on all three
 * screens. Fresh servers: the guide starts the appointment.
 */

const { newPage } = ownServers();

const poll = (page: Page) => page.getByTestId('poll').filter({ hasText: 'Which colour suits autumn?' });

async function vote(page: Page, answer: string): Promise<void> {
  await poll(page).getByRole('radio', { name: answer }).check();
  await poll(page).getByTestId('poll-vote').click();
  await expect(poll(page)).toContainText('Your vote is counted.');
}

/** "Red: 2 (100 %)"-like lines of a poll's results, in answer order. */
const results = (page: Page) => poll(page).getByTestId('poll-result');

test('a guide runs a poll with two guests: votes, a changed vote, results shown and the poll closed', async ({ browser }) => {
  test.setTimeout(180_000);
  const {
    guide,
    guests: [ada, eve],
  } = await startWithGuests(browser, newPage, 'Ada Guest', 'Eve Guest');

  await test.step('the guide creates a poll (a one-answer poll is refused) and opens it', async () => {
    const form = guide.getByTestId('poll-new');
    await form.locator('summary').click();
    await form.getByLabel('Question').fill('Which colour suits autumn?');
    await form.getByLabel('Answer 1').fill('Red');
    await form.getByRole('button', { name: 'Create poll' }).click();
    await expect(form.getByRole('alert')).toHaveText('A poll needs 2 to 6 answers of 1 to 100 characters.');
    await form.getByLabel('Answer 2').fill('Blue');
    await form.getByRole('button', { name: 'Create poll' }).click();
    await expect(poll(guide)).toHaveAttribute('data-status', 'draft');
    // A draft is the guide's alone.
    for (const attendee of [ada, eve]) await expect(poll(attendee)).toHaveCount(0);
    await poll(guide).getByRole('button', { name: 'Open', exact: true }).click();
    for (const page of [guide, ada, eve]) await expect(poll(page)).toHaveAttribute('data-status', 'open');
  });

  await test.step('both guests vote, one changes her vote; the guide sees the counts, the guests not yet', async () => {
    await vote(ada, 'Red');
    await vote(eve, 'Blue');
    await expect(results(guide)).toHaveText([/^Red: 1 /, /^Blue: 1 /]);
    await poll(eve).getByRole('radio', { name: 'Red' }).check();
    await poll(eve).getByRole('button', { name: 'Change vote' }).click();
    await expect(results(guide)).toHaveText([/^Red: 2 \(100 %\)/, /^Blue: 0 /]);
    await expect(poll(guide).getByTestId('poll-voters')).toContainText('2 votes');
    for (const attendee of [ada, eve]) await expect(results(attendee)).toHaveCount(0);
  });

  await test.step('the guide shows the results and closes the poll: the same counts everywhere', async () => {
    await poll(guide).getByRole('button', { name: 'Show results' }).click();
    for (const attendee of [ada, eve]) await expect(results(attendee)).toHaveText([/^Red: 2 \(100 %\)/, /^Blue: 0 /]);
    await poll(guide).getByRole('button', { name: 'Close', exact: true }).click();
    for (const page of [guide, ada, eve]) {
      await expect(poll(page)).toHaveAttribute('data-status', 'closed');
      await expect(results(page)).toHaveText([/^Red: 2 \(100 %\)/, /^Blue: 0 /]);
    }
    // Closed: nobody can vote any more.
    for (const attendee of [ada, eve]) await expect(poll(attendee).getByTestId('poll-vote')).toHaveCount(0);
  });

  await test.step('a guest who reloads sees the closed poll with its counts', async () => {
    await ada.reload();
    await expect(results(ada)).toHaveText([/^Red: 2 \(100 %\)/, /^Blue: 0 /]);
  });
});
