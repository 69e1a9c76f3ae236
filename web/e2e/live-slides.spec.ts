import { expect, test } from '@playwright/test';
import { submitGuideLogin, submitPrejoin } from './logins';

test('an attendee follows every slide the guide switches to', async ({ browser }) => {
  const attendee = await (await browser.newContext()).newPage();
  const guide = await (await browser.newContext()).newPage();

  await attendee.goto('/presentation/demo');
  await expect(attendee).toHaveURL(/\/presentation\/demo\/prejoin$/);
  await submitPrejoin(attendee, 'Ada Attendee');
  // Not started yet: the waiting room.
  await expect(attendee).toHaveURL(/\/presentation\/demo\/waiting$/);
  await expect(attendee.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');

  await guide.goto('/guide/demo');
  await expect(guide).toHaveURL(/\/guide\/demo\/login$/);
  await submitGuideLogin(guide, { open: false });
  await expect(guide).toHaveURL(/\/guide\/demo$/);
  await expect(guide.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  const guideSlide = guide.getByTestId('slide-position');
  await expect(guideSlide).toHaveText(/^Slide 1 of \d+$/);
  await expect(guide.getByRole('button', { name: 'Previous slide' })).toBeDisabled();

  await guide.getByRole('button', { name: 'Start presentation' }).click();
  await guide.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();
  await expect(attendee).toHaveURL(/\/presentation\/demo$/);
  await expect(attendee.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  const attendeeSlide = attendee.getByTestId('slide-position');
  await expect(attendeeSlide).toHaveText('Slide 1');

  const next = guide.getByRole('button', { name: 'Next slide' });
  for (const number of [2, 3, 4]) {
    await next.click();
    await expect(guideSlide).toHaveText(new RegExp(`^Slide ${number} of \\d+$`));
    await expect(attendeeSlide).toHaveText(`Slide ${number}`);
  }
});
