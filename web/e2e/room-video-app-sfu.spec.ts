import { expect, test, type Browser, type BrowserContext, type Locator, type Page, type WebSocketRoute } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';
import { startServers, type Servers } from './global-setup';
import { guideLogsIn, joinAsGuest } from './logins';

/*
 * The app's own video path in the default setup (as `make up`): no LIVEKIT_*, the embedded
 * media server runs beside the hub and the hub mints tokens with the key pair it wrote;
 * the guide's room publishes its fake camera and microphone, and an attendee's room shows
 * the guide's picture and plays the sound.
 *
 * The tests share one set of servers and the same three participants, in order (serial):
 * what the guide does to the room (broadcast mode, removing Walt) carries over. Media
 * checks read `getStats()` deltas and `videoWidth`, polled, never durations.
 */

test.describe.configure({ mode: 'serial' });

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

/** Frames decoded of one received video track (its `trackIdentifier`), over the page's open connections. */
function trackFrames(page: Page, trackId: string): Promise<number> {
  return page.evaluate(async (id) => {
    let frames = 0;
    for (const pc of (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((stat: { type: string; trackIdentifier?: string; framesDecoded?: number }) => {
        if (stat.type === 'inbound-rtp' && stat.trackIdentifier === id) frames += stat.framesDecoded ?? 0;
      });
    }
    return frames;
  }, trackId);
}

/** Video frames decoded on the connections the page made from the `from`-th on (those of a new session). */
function framesSince(page: Page, from: number): Promise<number> {
  return page.evaluate(async (first) => {
    let frames = 0;
    for (const pc of (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections.slice(first)) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((stat: { type: string; kind?: string; framesDecoded?: number }) => {
        if (stat.type === 'inbound-rtp' && stat.kind === 'video') frames += stat.framesDecoded ?? 0;
      });
    }
    return frames;
  }, from);
}

function connectionsMade(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections.length);
}

/** The received track a tile's <video> plays. */
function tileTrackId(tile: Locator): Promise<string> {
  return tile.locator('video').evaluate((video: HTMLVideoElement) => (video.srcObject as MediaStream).getVideoTracks()[0]!.id);
}

/** A counter stops moving: sampled twice 1.5 s apart, polled until the two agree. */
async function expectStalled(page: Page, read: () => Promise<number>): Promise<void> {
  await expect
    .poll(
      async () => {
        const before = await read();
        await page.waitForTimeout(1_500);
        return (await read()) - before;
      },
      { timeout: 30_000 },
    )
    .toBe(0);
}

/** A counter moves on by more than `by`. */
async function expectRising(read: () => Promise<number>, by = 5): Promise<void> {
  const before = await read();
  await expect.poll(read, { timeout: 30_000 }).toBeGreaterThan(before + by);
}

/** The width of the picture a tile's <video> shows (0 before its first frame). */
function videoWidth(tile: Locator): Promise<number> {
  return tile.locator('video').evaluate((video: HTMLVideoElement) => video.videoWidth);
}

test.describe('the room with the embedded sfu', () => {
  let servers: Servers;
  interface Participant {
    page: Page;
    context: BrowserContext;
    /** Signalling the page asked of `/rtc/v1`, which the sfu does not serve, and errors its console logged about it. */
    rtcV1: string[];
  }
  let guide: Participant;
  let vera: Participant;
  let walt: Participant;
  /** Vera's signalling sockets to the sfu, routed through the test so that her network can drop. */
  const veraSignal = { offline: false, sockets: [] as { page: WebSocketRoute; server: WebSocketRoute }[] };

  test.beforeAll(async ({ browser }) => {
    servers = await startServers({ video: true });
    // The default setup: the embedded sfu runs and the app is told about it.
    expect(servers.sfuUrl).not.toBeNull();
    guide = await newPage(browser);
    vera = await newPage(browser, async (context) => {
      const sfuPort = new URL(servers.sfuUrl!).port;
      await context.routeWebSocket(
        (url) => url.port === sfuPort,
        (socket) => {
          // Offline: the connection fails at once, as without a network.
          if (veraSignal.offline) return socket.close();
          veraSignal.sockets.push({ page: socket, server: socket.connectToServer() });
        },
      );
    });
    walt = await newPage(browser);
  });

  test.afterAll(async () => {
    for (const participant of [guide, vera, walt]) await participant?.context.close();
    await servers?.teardown();
  });

  async function newPage(browser: Browser, prepare?: (context: BrowserContext) => Promise<void>): Promise<Participant> {
    const context = await browser.newContext({ baseURL: servers.origin, viewport: { width: 1440, height: 900 } });
    await recordPeerConnections(context);
    await prepare?.(context);
    const page = await context.newPage();
    const rtcV1: string[] = [];
    page.on('websocket', (socket) => /\/rtc\/v1/.test(socket.url()) && rtcV1.push(`websocket ${socket.url()}`));
    page.on('request', (request) => /\/rtc\/v1/.test(request.url()) && rtcV1.push(`request ${request.url()}`));
    page.on('console', (message) => message.type() === 'error' && /\/rtc/.test(message.text()) && rtcV1.push(`console ${message.text()}`));
    return { page, context, rtcV1 };
  }

  /** A room's camera or microphone switch in its toolbar. */
  function mediaSwitch(page: Page, name: 'Camera' | 'Microphone'): Locator {
    return page.getByRole('toolbar').getByRole('button', { name, exact: true });
  }

  /** In an attendee's speaker layout the guide's tile leads. */
  function guideTileAt(page: Page): Locator {
    return page.getByTestId('video-status').locator('figure').first();
  }

  function tileOf(page: Page, name: string): Locator {
    return page.getByTestId('video-status').locator('figure').filter({ hasText: name });
  }

  async function setBroadcast(on: boolean): Promise<void> {
    await guide.page.getByRole('button', { name: 'Broadcast mode', exact: true }).click();
    await guide.page
      .getByRole('dialog', { name: 'Broadcast mode' })
      .getByRole('button', { name: on ? 'Turn broadcast mode on' : 'Turn broadcast mode off' })
      .click();
    // Closed once the guide's request is answered (attendees may see the change before).
    await expect(guide.page.getByRole('dialog', { name: 'Broadcast mode' })).toBeHidden();
  }

  test("two attendees see and hear the guide, the guide sees them, and the guide's mute-all silences their microphones", async () => {
    test.setTimeout(240_000);
    // The proxy hands the app the embedded sfu's URL (the hub mints tokens for the same).
    const runtime = (await (await guide.page.request.get('/runtime-config.json')).json()) as { livekitUrl: string | null };
    expect(runtime.livekitUrl).toBe(servers.sfuUrl);
    await guideLogsIn(guide.page, {}, { timeout: 20_000 });

    await joinAsGuest(vera.page, 'Vera Video', { waiting: false });
    await joinAsGuest(walt.page, 'Walt Webcam', { waiting: false });
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
      const guideTile = guideTileAt(attendee.page);
      await expect(guideTile).not.toHaveText('You', { timeout: 30_000 });
      await expect.poll(() => videoWidth(guideTile), { timeout: 30_000 }).toBeGreaterThan(0);
      await expectMediaFlowing(attendee.page);
      // The demo appointment lets attendees use both: their switches are on.
      await expect(mediaSwitch(attendee.page, 'Camera')).toHaveAttribute('aria-pressed', 'true');
      await expect(mediaSwitch(attendee.page, 'Microphone')).toHaveAttribute('aria-pressed', 'true');
    }

    // The demo appointment lets attendees use camera and microphone: the guide sees both.
    for (const name of ['Vera Video', 'Walt Webcam']) {
      await expect.poll(() => videoWidth(tileOf(guide.page, name)), { timeout: 30_000 }).toBeGreaterThan(0);
    }
    await expect.poll(async () => (await inbound(guide.page)).audioPackets, { timeout: 20_000 }).toBeGreaterThan(0);
    // The rooms' consoles stay clean: livekit-client signals where the sfu serves (`/rtc`),
    // no failed `/rtc/v1` WebSocket and no `/rtc/v1/validate` 404 first (#31 item 12).
    for (const participant of [guide, vera, walt]) expect(participant.rtcV1).toEqual([]);

    // Mute all: no sound of the attendees reaches the guide any more (the sfu forwards no
    // muted track), while the guide's own picture and sound still reach them.
    await guide.page.getByRole('button', { name: 'Mute all' }).click();
    await guide.page.getByRole('dialog', { name: 'Mute everyone?' }).getByRole('button', { name: 'Mute all' }).click();
    await expect(guide.page.getByText('Everyone is muted')).toBeVisible();
    await expectStalled(guide.page, async () => (await inbound(guide.page)).audioPackets);
    await expectMediaFlowing(vera.page);
    // The attendee's microphone switch is held, and says why.
    await expect(mediaSwitch(vera.page, 'Microphone')).toBeDisabled();
    await expect(mediaSwitch(vera.page, 'Microphone')).toHaveAccessibleDescription('The guide has muted everyone.');

    // Microphones allowed again: their sound comes back.
    await guide.page.getByRole('button', { name: 'Allow microphones' }).click();
    await expect(mediaSwitch(vera.page, 'Microphone')).toBeEnabled();
    await expectRising(async () => (await inbound(guide.page)).audioPackets, 0);
  });

  test('the guide turns the camera off and on again, and both attendees see it', async () => {
    test.setTimeout(120_000);
    const camera = mediaSwitch(guide.page, 'Camera');
    await expect(camera).toHaveAttribute('aria-pressed', 'true');
    const tracks = [await tileTrackId(guideTileAt(vera.page)), await tileTrackId(guideTileAt(walt.page))];

    // Off with the keyboard: the attendees get no more frames of it and show the placeholder.
    await camera.focus();
    await guide.page.keyboard.press('Enter');
    await expect(camera).toHaveAttribute('aria-pressed', 'false');
    for (const [index, attendee] of [vera, walt].entries()) {
      await expectStalled(attendee.page, () => trackFrames(attendee.page, tracks[index]!));
      await expect(guideTileAt(attendee.page).locator('video')).toHaveCount(0);
    }
    // Its sound goes on.
    await expectRising(async () => (await inbound(vera.page)).totalSamplesReceived, 0);

    // On again: the picture is back and moving.
    await camera.click();
    await expect(camera).toHaveAttribute('aria-pressed', 'true');
    for (const attendee of [vera, walt]) {
      const tile = guideTileAt(attendee.page);
      await expect.poll(() => videoWidth(tile), { timeout: 30_000 }).toBeGreaterThan(0);
      const track = await tileTrackId(tile);
      await expectRising(() => trackFrames(attendee.page, track));
    }
  });

  test("broadcast mode stops the attendees' publishing: the guide no longer gets their media, and their switches say why", async () => {
    test.setTimeout(120_000);
    await setBroadcast(true);
    for (const attendee of [vera, walt]) {
      for (const name of ['Camera', 'Microphone'] as const) {
        await expect(mediaSwitch(attendee.page, name)).toBeDisabled({ timeout: 20_000 });
        await expect(mediaSwitch(attendee.page, name)).toHaveAttribute('aria-pressed', 'false');
        await expect(mediaSwitch(attendee.page, name)).toHaveAccessibleDescription(
          'Broadcast mode: only the guide is on camera and microphone.',
        );
      }
      // Nothing of their own is published (their own tile has no picture), the guide still shows.
      await expect(tileOf(attendee.page, 'You').locator('video')).toHaveCount(0, { timeout: 30_000 });
      await expect.poll(() => videoWidth(guideTileAt(attendee.page)), { timeout: 30_000 }).toBeGreaterThan(0);
    }
    for (const name of ['Vera Video', 'Walt Webcam']) {
      await expect(tileOf(guide.page, name).locator('video')).toHaveCount(0, { timeout: 30_000 });
    }
    // No attendee video or sound reaches the guide any more.
    await expectStalled(guide.page, async () => {
      const { framesDecoded, audioPackets } = await inbound(guide.page);
      return framesDecoded + audioPackets;
    });

    // Off again: the attendees publish again and the guide sees them.
    await setBroadcast(false);
    for (const attendee of [vera, walt]) {
      await expect(mediaSwitch(attendee.page, 'Camera')).toHaveAttribute('aria-pressed', 'true', { timeout: 20_000 });
    }
    for (const name of ['Vera Video', 'Walt Webcam']) {
      await expect.poll(() => videoWidth(tileOf(guide.page, name)), { timeout: 30_000 }).toBeGreaterThan(0);
    }
  });

  // After the drop livekit-client resumes, then tries a full rejoin that never reaches the
  // server (it hangs in 'reconnecting'); the app leaves that room after STUCK_RECONNECT_MS
  // (web/src/lib/video/rejoin.ts) and joins anew with the hub's latest token.
  test("an attendee whose network drops gets the guide's video back after the reconnect", async () => {
    test.setTimeout(120_000);
    await expect.poll(() => videoWidth(guideTileAt(vera.page)), { timeout: 30_000 }).toBeGreaterThan(0);
    const before = await connectionsMade(vera.page);
    // The network goes: her open signalling socket breaks and new ones fail, for a few seconds.
    await vera.context.setOffline(true);
    veraSignal.offline = true;
    for (const { page, server } of veraSignal.sockets.splice(0)) {
      await server.close();
      await page.close();
    }
    await vera.page.waitForTimeout(4_000);
    veraSignal.offline = false;
    await vera.context.setOffline(false);

    // Back: the room joins again on new connections, the guide's picture plays from them.
    await expect.poll(() => connectionsMade(vera.page), { timeout: 60_000 }).toBeGreaterThan(before);
    await expect.poll(() => framesSince(vera.page, before), { timeout: 60_000 }).toBeGreaterThan(5);
    await expect.poll(() => videoWidth(guideTileAt(vera.page)), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect(vera.page.getByTestId('video-status').getByRole('alert')).toHaveCount(0);
    // And the guide sees her again.
    await expect.poll(() => videoWidth(tileOf(guide.page, 'Vera Video')), { timeout: 30_000 }).toBeGreaterThan(0);
  });

  test("a removed attendee's media stops at once for the guide", async () => {
    test.setTimeout(120_000);
    const tile = tileOf(guide.page, 'Walt Webcam');
    await expect.poll(() => videoWidth(tile), { timeout: 30_000 }).toBeGreaterThan(0);
    const track = await tileTrackId(tile);
    const participants = guide.page.getByRole('region', { name: 'Participants' });
    await participants.getByRole('listitem', { name: 'Walt Webcam' }).getByRole('button', { name: 'Remove Walt Webcam' }).click();
    await guide.page.getByRole('dialog', { name: 'Remove Walt Webcam?' }).getByRole('button', { name: 'Remove now' }).click();
    await expect(tile).toHaveCount(0);
    await expectStalled(guide.page, () => trackFrames(guide.page, track));
    // Vera is still there.
    await expect.poll(() => videoWidth(tileOf(guide.page, 'Vera Video')), { timeout: 30_000 }).toBeGreaterThan(0);
  });
});
