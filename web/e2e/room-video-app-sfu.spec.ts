import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';
import { startServers, type Servers } from './global-setup';

/*
 * The app's own video path in the default setup (as `make up`): no LIVEKIT_*, the embedded
 * media server runs beside the hub and the hub mints tokens with the key pair it wrote;
 * the guide's room publishes its fake camera and microphone, and an attendee's room shows
 * the guide's picture and plays the sound.
 */

test.use({
  actionTimeout: 15_000,
  launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'] },
});

/** Keeps every peer connection the page makes, to read its receive statistics. */
async function recordPeerConnections(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const Original = window.RTCPeerConnection;
    const made: RTCPeerConnection[] = [];
    (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections = made;
    window.RTCPeerConnection = class extends Original {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        made.push(this);
      }
    };
  });
}

interface Inbound {
  framesDecoded: number;
  totalSamplesReceived: number;
  audioPackets: number;
}

/** framesDecoded, totalSamplesReceived and audio packets summed over the page's received streams. */
function inbound(page: Page): Promise<Inbound> {
  return page.evaluate(async () => {
    const result = { framesDecoded: 0, totalSamplesReceived: 0, audioPackets: 0 };
    for (const pc of (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach(
        (stat: { type: string; kind?: string; framesDecoded?: number; totalSamplesReceived?: number; packetsReceived?: number }) => {
          if (stat.type !== 'inbound-rtp') return;
          if (stat.kind === 'video') result.framesDecoded += stat.framesDecoded ?? 0;
          if (stat.kind === 'audio') {
            result.totalSamplesReceived += stat.totalSamplesReceived ?? 0;
            result.audioPackets += stat.packetsReceived ?? 0;
          }
        },
      );
    }
    return result;
  });
}

/** The page keeps decoding video frames and receiving sound. */
async function expectMediaFlowing(page: Page): Promise<void> {
  const before = await inbound(page);
  await expect.poll(async () => (await inbound(page)).framesDecoded, { timeout: 20_000 }).toBeGreaterThan(before.framesDecoded + 5);
  await expect.poll(async () => (await inbound(page)).totalSamplesReceived, { timeout: 20_000 }).toBeGreaterThan(before.totalSamplesReceived);
}

/** The width of the picture a tile's <video> shows (0 before its first frame). */
function videoWidth(tile: Locator): Promise<number> {
  return tile.locator('video').evaluate((video: HTMLVideoElement) => video.videoWidth);
}

test.describe('the room with the embedded sfu', () => {
  let servers: Servers;

  test.beforeAll(async () => {
    servers = await startServers({ video: true });
    // The default setup: the embedded sfu runs and the app is told about it.
    expect(servers.sfuUrl).not.toBeNull();
  });

  test.afterAll(async () => {
    await servers?.teardown();
  });

  async function newPage(browser: Browser): Promise<{ page: Page; context: BrowserContext }> {
    const context = await browser.newContext({ baseURL: servers.origin, viewport: { width: 1440, height: 900 } });
    await recordPeerConnections(context);
    return { page: await context.newPage(), context };
  }

  async function joinAsAttendee(page: Page, name: string): Promise<void> {
    await page.goto('/presentation/demo/prejoin');
    await page.getByLabel('Your name').fill(name);
    await page.getByLabel(/privacy policy/).check();
    await page.getByRole('button', { name: 'Join' }).click();
  }

  test("two attendees see and hear the guide, the guide sees them, and the guide's mute-all silences their microphones", async ({ browser }) => {
    test.setTimeout(240_000);
    const guide = await newPage(browser);
    const vera = await newPage(browser);
    const walt = await newPage(browser);
    try {
      // The proxy hands the app the embedded sfu's URL (the hub mints tokens for the same).
      const runtime = (await (await guide.page.request.get('/runtime-config.json')).json()) as { livekitUrl: string | null };
      expect(runtime.livekitUrl).toBe(servers.sfuUrl);
      await guide.page.goto('/guide/demo/login');
      await guide.page.getByLabel('Username').fill('admin');
      await guide.page.getByLabel('Password').fill('shopware');
      await guide.page.getByRole('button', { name: 'Log in' }).click();
      await expect(guide.page.getByRole('status', { name: 'Live connection' })).toHaveText('Connected', { timeout: 20_000 });

      await joinAsAttendee(vera.page, 'Vera Video');
      await joinAsAttendee(walt.page, 'Walt Webcam');
      // These servers are the spec's own: the demo has not started, the attendees wait.
      await expect(vera.page).toHaveURL(/\/presentation\/demo\/waiting$/);
      await expect(walt.page).toHaveURL(/\/presentation\/demo\/waiting$/);
      await guide.page.getByRole('button', { name: 'Start presentation' }).click();
      await guide.page.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();

      for (const attendee of [vera, walt]) {
        await expect(attendee.page).toHaveURL(/\/presentation\/demo$/);
        // No "not configured" and no "could not be reached": the video runs.
        await expect(attendee.page.getByTestId('video-status').getByRole('alert')).toHaveCount(0);
        // The speaker layout leads with the guide's tile (not "You"), which shows a live picture.
        const guideTile = attendee.page.getByTestId('video-status').locator('figure').first();
        await expect(guideTile).not.toHaveText('You', { timeout: 30_000 });
        await expect.poll(() => videoWidth(guideTile), { timeout: 30_000 }).toBeGreaterThan(0);
        await expectMediaFlowing(attendee.page);
      }

      // The demo appointment lets attendees use camera and microphone: the guide sees both.
      for (const name of ['Vera Video', 'Walt Webcam']) {
        const tile = guide.page.getByTestId('video-status').locator('figure').filter({ hasText: name });
        await expect.poll(() => videoWidth(tile), { timeout: 30_000 }).toBeGreaterThan(0);
      }
      await expect.poll(async () => (await inbound(guide.page)).audioPackets, { timeout: 20_000 }).toBeGreaterThan(0);

      // Mute all: no sound of the attendees reaches the guide any more (the sfu forwards no
      // muted track), while the guide's own picture and sound still reach them.
      await guide.page.getByRole('button', { name: 'Mute all' }).click();
      await guide.page.getByRole('dialog', { name: 'Mute everyone?' }).getByRole('button', { name: 'Mute all' }).click();
      await expect(guide.page.getByText('Everyone is muted')).toBeVisible();
      await expect
        .poll(
          async () => {
            const before = (await inbound(guide.page)).audioPackets;
            await guide.page.waitForTimeout(1_500);
            return (await inbound(guide.page)).audioPackets - before;
          },
          { timeout: 30_000 },
        )
        .toBe(0);
      await expectMediaFlowing(vera.page);

      // Microphones allowed again: their sound comes back.
      await guide.page.getByRole('button', { name: 'Allow microphones' }).click();
      const silent = (await inbound(guide.page)).audioPackets;
      await expect.poll(async () => (await inbound(guide.page)).audioPackets, { timeout: 30_000 }).toBeGreaterThan(silent);
    } finally {
      await guide.context.close();
      await vera.context.close();
      await walt.context.close();
    }
  });
});
