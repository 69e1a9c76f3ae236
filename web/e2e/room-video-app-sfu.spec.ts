import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
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
}

/** framesDecoded and totalSamplesReceived summed over the page's received streams. */
function inbound(page: Page): Promise<Inbound> {
  return page.evaluate(async () => {
    const result = { framesDecoded: 0, totalSamplesReceived: 0 };
    for (const pc of (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((stat: { type: string; kind?: string; framesDecoded?: number; totalSamplesReceived?: number }) => {
        if (stat.type !== 'inbound-rtp') return;
        if (stat.kind === 'video') result.framesDecoded += stat.framesDecoded ?? 0;
        if (stat.kind === 'audio') result.totalSamplesReceived += stat.totalSamplesReceived ?? 0;
      });
    }
    return result;
  });
}

test.describe('the room with the embedded sfu', () => {
  let servers: Servers;

  test.beforeAll(async () => {
    servers = await startServers();
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

  test("an attendee sees and hears the guide, and the guide sees the attendee", async ({ browser }) => {
    test.setTimeout(120_000);
    const guide = await newPage(browser);
    const attendee = await newPage(browser);
    try {
      // The proxy hands the app the embedded sfu's URL (the hub mints tokens for the same).
      const runtime = (await (await guide.page.request.get('/runtime-config.json')).json()) as { livekitUrl: string | null };
      expect(runtime.livekitUrl).toBe(servers.sfuUrl);
      await guide.page.goto('/guide/demo/login');
      await guide.page.getByLabel('Username').fill('admin');
      await guide.page.getByLabel('Password').fill('shopware');
      await guide.page.getByRole('button', { name: 'Log in' }).click();
      await expect(guide.page.getByRole('status', { name: 'Live connection' })).toHaveText('Connected', { timeout: 20_000 });

      await attendee.page.goto('/presentation/demo/prejoin');
      await attendee.page.getByLabel('Your name').fill('Vera Video');
      await attendee.page.getByLabel(/privacy policy/).check();
      await attendee.page.getByRole('button', { name: 'Join' }).click();
      // These servers are the spec's own: the demo has not started, the attendee waits.
      await expect(attendee.page).toHaveURL(/\/presentation\/demo\/waiting$/);
      await guide.page.getByRole('button', { name: 'Start presentation' }).click();
      await guide.page.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();
      await expect(attendee.page).toHaveURL(/\/presentation\/demo$/);

      // No "not configured" and no "could not be reached": the video runs.
      await expect(attendee.page.getByTestId('video-status').getByRole('alert')).toHaveCount(0);
      // The guide's tile (named after the guide, not "You") shows a live picture.
      const guideTile = attendee.page.getByTestId('video-status').locator('figure').filter({ hasNotText: /^You$/ });
      await expect(guideTile).toHaveCount(1);
      await expect.poll(() => guideTile.locator('video').evaluate((video: HTMLVideoElement) => video.videoWidth), { timeout: 30_000 }).toBeGreaterThan(0);
      const before = await inbound(attendee.page);
      await expect.poll(async () => (await inbound(attendee.page)).framesDecoded, { timeout: 15_000 }).toBeGreaterThan(before.framesDecoded + 5);
      await expect.poll(async () => (await inbound(attendee.page)).totalSamplesReceived, { timeout: 15_000 }).toBeGreaterThan(before.totalSamplesReceived);

      // The demo appointment lets attendees use camera and microphone: the guide sees her.
      const attendeeTile = guide.page.getByTestId('video-status').locator('figure').filter({ hasText: 'Vera Video' });
      await expect.poll(() => attendeeTile.locator('video').evaluate((video: HTMLVideoElement) => video.videoWidth), { timeout: 30_000 }).toBeGreaterThan(0);
    } finally {
      await guide.context.close();
      await attendee.context.close();
    }
  });
});
