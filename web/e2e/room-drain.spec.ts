import { expect, test, type Page } from '@playwright/test';
import { connectionsOf, missingClusterTools, startCluster, type Cluster } from './cluster';
import { guideLogsIn, joinAsGuest } from './logins';
import { startPresentation } from './room';

/**
 * A replica drains under a live room (issue #17, item 4): two hub replicas behind a real
 * nginx with a real redis-server, a guide and an attendee in the room; the replica the
 * attendee is on gets SIGTERM, tells its sockets to resume elsewhere (4013) and exits.
 * The attendee's page follows the guide's next slides on the other replica without a
 * reload and without missing one.
 */
const missing = missingClusterTools();
test.skip(missing !== null, `${missing} is not installed (make system-deps installs it; CI has it)`);

let cluster: Cluster;
test.use({ actionTimeout: 15_000 });
test.beforeAll(async () => {
  cluster = await startCluster({ replicas: 2, drainSecs: 2 });
});
test.afterAll(async () => {
  await cluster?.teardown();
});

async function connections(): Promise<number[]> {
  return Promise.all(cluster.replicaUrls.map(connectionsOf));
}

test('the attendee follows every slide while their hub replica drains', async ({ browser }) => {
  test.setTimeout(60_000);
  const page = async (): Promise<Page> =>
    (await browser.newContext({ baseURL: cluster.origin, viewport: { width: 1440, height: 900 } })).newPage();
  const guide = await page();
  const attendee = await page();

  await guideLogsIn(guide);
  const before = await connections();
  await joinAsGuest(attendee, 'Ada Attendee');
  await expect(attendee.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  // The replica that gained a socket is the attendee's.
  let attendeeReplica = -1;
  await expect
    .poll(async () => {
      const now = await connections();
      attendeeReplica = now.findIndex((count, index) => count > before[index]!);
      return attendeeReplica;
    })
    .toBeGreaterThanOrEqual(0);
  await startPresentation(guide);
  await expect(attendee).toHaveURL(/\/presentation\/demo$/);

  const guideSlide = guide.getByTestId('slide-position');
  const attendeeSlide = attendee.getByTestId('slide-position');
  const next = guide.getByRole('button', { name: 'Next slide' });
  await next.click();
  await expect(guideSlide).toHaveText(/^Slide 2 of \d+$/);
  await expect(attendeeSlide).toHaveText('Slide 2');
  // Marks this document: a reload would lose it.
  await attendee.evaluate(() => ((window as unknown as { drainMark: number }).drainMark = 17));

  // SIGTERM; the guide switches on while the replica drains and after it is gone.
  const drained = cluster.drain(attendeeReplica);
  const guideConnection = guide.getByRole('status', { name: 'Live connection' });
  await expect(guideConnection).toHaveText(/^(Reconnected|Connected)$/);
  await next.click();
  await expect(guideSlide).toHaveText(/^Slide 3 of \d+$/);
  await expect(attendeeSlide).toHaveText('Slide 3');
  await drained;
  await expect(guideConnection).toHaveText(/^(Reconnected|Connected)$/);
  await next.click();
  await expect(guideSlide).toHaveText(/^Slide 4 of \d+$/);
  await expect(attendeeSlide).toHaveText('Slide 4');

  // The attendee is now on the other replica, connected again, in the same document.
  await expect(attendee.getByRole('status', { name: 'Live connection' })).toHaveText(/^(Reconnected|Connected)$/);
  expect(await attendee.evaluate(() => (window as unknown as { drainMark?: number }).drainMark)).toBe(17);
  const survivor = cluster.replicaUrls.findIndex((_, index) => index !== attendeeReplica);
  expect(await connectionsOf(cluster.replicaUrls[survivor]!)).toBeGreaterThanOrEqual(2);
});
