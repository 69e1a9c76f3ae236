import { expect, test, type Page } from '@playwright/test';
import { ownServers, startWithGuests } from './room';

/*
 * Questions (#19 item 4): one guide and two guests. Ada asks (and may not up-vote her
 * own question), Eve up-votes it and asks one of her own with hostile text (shown as
 * text); the guide's queue is sorted by up-votes; the guide answers Ada's now (both
 * guests see it above their tabs), marks it answered, and dismisses Eve's: it disappears
 * for all. Fresh servers: the guide starts the appointment.
 */

const { newPage } = ownServers();

const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> \u202Eevil';
const ADAS = 'Does the coat come in green?';

async function openQuestions(page: Page): Promise<void> {
  await page.getByTestId('engagement-tab-questions').click();
  await expect(page.getByTestId('questions')).toBeVisible();
}

async function ask(page: Page, text: string): Promise<void> {
  await page.getByTestId('question-input').fill(text);
  await page.getByTestId('question-ask').click();
  await expect(page.getByTestId('question-input')).toHaveValue('');
}

const question = (page: Page, text: string) => page.getByTestId('question').filter({ hasText: text });

test('guests ask and up-vote, the guide answers from a sorted queue and dismisses a question for all', async ({ browser }) => {
  test.setTimeout(180_000);
  const {
    guide,
    guests: [ada, eve],
  } = await startWithGuests(browser, newPage, 'Ada Guest', 'Eve Guest');
  for (const page of [ada, eve, guide]) await openQuestions(page);

  await test.step('an empty question is refused with its message', async () => {
    await ada.getByTestId('question-ask').click();
    await expect(ada.getByTestId('question-error')).toHaveText('Please write a question first.');
  });

  await test.step('Ada asks; she may not up-vote her own question, Eve up-votes it', async () => {
    await ask(ada, ADAS);
    for (const page of [ada, eve, guide]) await expect(question(page, ADAS)).toBeVisible();
    await expect(question(ada, ADAS)).toContainText('Your question');
    await expect(question(ada, ADAS).getByTestId('question-upvote')).toHaveCount(0);
    await question(eve, ADAS).getByTestId('question-upvote').click();
    await expect(question(eve, ADAS).getByTestId('question-upvote')).toHaveAttribute('aria-pressed', 'true');
    for (const page of [ada, eve, guide]) await expect(question(page, ADAS).getByTestId('question-votes')).toHaveText('1 up-vote');
  });

  await test.step('Eve asks with hostile text, shown as text; a second question at once is refused by the rate', async () => {
    await ask(eve, HOSTILE);
    const shown = 'evil';
    for (const page of [ada, eve, guide]) await expect(question(page, shown).getByTestId('question-text')).toHaveText(HOSTILE.replace('\u202E', ''));
    await eve.getByTestId('question-input').fill('One more?');
    await eve.getByTestId('question-ask').click();
    await expect(eve.getByTestId('question-error')).toHaveText('You can ask one question every 30 seconds. Please wait a moment.');
    for (const page of [ada, eve, guide]) expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    await expect(guide.locator('[data-testid="questions"] img, [data-testid="questions"] script')).toHaveCount(0);
  });

  await test.step("the guide's queue is sorted by up-votes, then age", async () => {
    const texts = guide.getByTestId('question-text');
    await expect(texts).toHaveText([ADAS, HOSTILE.replace('\u202E', '')]);
  });

  await test.step('the guide answers Ada\'s question now: both guests see it; then answered', async () => {
    await question(guide, ADAS).getByRole('button', { name: 'Answer now' }).click();
    for (const page of [ada, eve, guide]) {
      await expect(page.getByTestId('question-answering')).toContainText('Being answered now');
      await expect(page.getByTestId('question-answering-text')).toHaveText(ADAS);
    }
    // Shown above the tabs: a guest on the chat tab sees it too.
    await ada.getByTestId('engagement-tab-chat').click();
    await expect(ada.getByTestId('question-answering-text')).toHaveText(ADAS);
    await openQuestions(ada);
    await question(guide, ADAS).getByRole('button', { name: 'Mark answered' }).click();
    for (const page of [ada, eve, guide]) {
      await expect(page.getByTestId('question-answering')).toHaveCount(0);
      await expect(question(page, ADAS)).toHaveAttribute('data-status', 'answered');
    }
    // Answered questions go to the end of the queue.
    await expect(guide.getByTestId('question-text')).toHaveText([HOSTILE.replace('\u202E', ''), ADAS]);
  });

  await test.step("the guide dismisses Eve's question: it disappears for all, also after a reload", async () => {
    await question(guide, 'evil').getByRole('button', { name: 'Dismiss' }).click();
    for (const page of [ada, eve, guide]) await expect(question(page, 'evil')).toHaveCount(0);
    await eve.reload();
    await openQuestions(eve);
    await expect(question(eve, ADAS)).toHaveAttribute('data-status', 'answered');
    await expect(question(eve, ADAS).getByTestId('question-upvote')).toHaveAttribute('aria-pressed', 'true');
    await expect(question(eve, 'evil')).toHaveCount(0);
  });
});
