import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { AccessToken, RoomServiceClient, TrackType } from 'livekit-server-sdk';
import { API_KEY, API_SECRET, startSfu, stopSfu, type Sfu } from './sfu';

/**
 * Video through the embedded media server (`sfu`): Chromium with fake camera and
 * microphone publishes through livekit-client, unchanged, and other browsers receive the
 * frames. The spec starts the `sfu` binary itself and mints tokens as the hub does, on a
 * bare page that loads livekit-client's own bundle: it tests the media path, not the app.
 * The page comes from a real loopback server, not from route interception: Chromium lets
 * only a page of the loopback address space reach the loopback sfu (Local Network Access).
 */

const WEB_DIR = path.resolve(import.meta.dirname, '..');
const ROOM = 'demo';

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>sfu</title>
<script src="/livekit-client.umd.js"></script></head><body><script>
  const LK = window.LivekitClient;
  window.joinRoom = async (url, token, publish) => {
    const room = new LK.Room({ adaptiveStream: true, dynacast: true });
    room.on(LK.RoomEvent.TrackUnsubscribed, (track) => track.detach().forEach((element) => element.remove()));
    room.on(LK.RoomEvent.Disconnected, (reason) => { window.disconnectReason = reason; });
    room.on(LK.RoomEvent.TrackSubscribed, (track, publication, participant) => {
      const element = track.attach();
      element.dataset.participant = participant.identity;
      element.dataset.kind = track.kind;
      if (track.kind === 'video') { element.width = 320; element.height = 240; }
      document.body.appendChild(element);
    });
    await room.connect(url, token);
    if (publish) await room.localParticipant.enableCameraAndMicrophone();
    window.room = room;
    return room.localParticipant.sid;
  };
  window.unpublishCamera = async () => {
    const publication = window.room.localParticipant.getTrackPublication(LK.Track.Source.Camera);
    await window.room.localParticipant.unpublishTrack(publication.track);
  };
  /** framesDecoded of the received video and totalSamplesReceived of the received audio. */
  window.receivedStats = async (identity) => {
    const participant = [...window.room.remoteParticipants.values()].find((p) => p.identity === identity);
    const result = { framesDecoded: 0, totalSamplesReceived: 0, videoWidth: 0, muted: null, audioMuted: null };
    if (!participant) return result;
    for (const publication of participant.trackPublications.values()) {
      if (publication.kind === 'video') result.muted = publication.isMuted;
      if (publication.kind === 'audio') result.audioMuted = publication.isMuted;
      const track = publication.track;
      if (!track) continue;
      const report = await track.getRTCStatsReport();
      report?.forEach((stat) => {
        if (stat.type !== 'inbound-rtp') return;
        if (stat.kind === 'video') result.framesDecoded = stat.framesDecoded ?? 0;
        if (stat.kind === 'audio') result.totalSamplesReceived = stat.totalSamplesReceived ?? 0;
      });
    }
    const videos = document.querySelectorAll('video[data-participant="' + identity + '"]');
    const video = videos[videos.length - 1];
    result.videoWidth = video ? video.videoWidth : 0;
    return result;
  };
</script></body></html>`;

/** A token as the hub mints it: guides publish, attendees only when the appointment allows. */
async function tokenFor(identity: string, canPublish: boolean): Promise<string> {
  const token = new AccessToken(API_KEY, API_SECRET, { identity, name: identity, ttl: '1h' });
  token.addGrant({ room: ROOM, roomJoin: true, canPublish, canSubscribe: true, canPublishData: true });
  return token.toJwt();
}

/** Serves the page and livekit-client's bundle on 127.0.0.1 (a secure context, for getUserMedia). */
async function servePage(): Promise<{ origin: string; server: Server }> {
  const bundle = readFileSync(path.join(WEB_DIR, 'node_modules/livekit-client/dist/livekit-client.umd.js'));
  const server = createServer((request, response) => {
    const script = request.url === '/livekit-client.umd.js';
    response.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html' });
    response.end(script ? bundle : PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function openPage(context: BrowserContext, origin: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  return page;
}

interface Received {
  framesDecoded: number;
  totalSamplesReceived: number;
  videoWidth: number;
  muted: boolean | null;
  audioMuted: boolean | null;
}

type PageRoom = {
  localParticipant: { setCameraEnabled: (on: boolean) => Promise<unknown> };
  simulateScenario: (scenario: string) => Promise<void>;
  state: string;
};

function room(page: Page) {
  return {
    setCamera: (on: boolean) => page.evaluate((o) => (window as unknown as { room: PageRoom }).room.localParticipant.setCameraEnabled(o), on),
    state: () => page.evaluate(() => (window as unknown as { room: PageRoom }).room.state),
    dropSignalling: () => page.evaluate(() => (window as unknown as { room: PageRoom }).room.simulateScenario('signal-reconnect')),
    unpublishCamera: () => page.evaluate(() => (window as unknown as { unpublishCamera: () => Promise<void> }).unpublishCamera()),
  };
}

function received(page: Page, identity: string): Promise<Received> {
  return page.evaluate((who) => (window as unknown as { receivedStats: (w: string) => Promise<Received> }).receivedStats(who), identity);
}

function join(page: Page, url: string, token: string, publish: boolean): Promise<string> {
  return page.evaluate(
    ([u, t, p]) => (window as unknown as { joinRoom: (u: string, t: string, p: boolean) => Promise<string> }).joinRoom(u, t, p),
    [url, token, publish] as const,
  );
}

/** Frames keep arriving: the counter rises over a second, not just once. */
async function expectFramesFlowing(page: Page, identity: string): Promise<void> {
  await expect.poll(async () => (await received(page, identity)).videoWidth, { timeout: 20_000 }).toBeGreaterThan(0);
  const before = await received(page, identity);
  await expect.poll(async () => (await received(page, identity)).framesDecoded, { timeout: 10_000 }).toBeGreaterThan(before.framesDecoded + 5);
  await expect
    .poll(async () => (await received(page, identity)).totalSamplesReceived, { timeout: 10_000 })
    .toBeGreaterThan(before.totalSamplesReceived);
}

test.describe('video through the embedded sfu', () => {
  let sfu: Sfu;
  let page: { origin: string; server: Server };

  test.beforeAll(async () => {
    [sfu, page] = await Promise.all([startSfu(), servePage()]);
  });

  test.afterAll(async () => {
    // SFU_E2E_LOG=1 prints the media server's log (RUST_LOG sets its detail, sfu=debug by default).
    if (process.env.SFU_E2E_LOG) console.log(sfu.output.join(''));
    await Promise.all([stopSfu(sfu), new Promise((resolve) => page.server.close(resolve))]);
  });

  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures from the destructuring pattern; testInfo is the second argument
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('sfu.log', { body: sfu.output.join('') });
  });

  test("two attendees receive the guide's camera and microphone; camera off and on, and unpublished, is seen", async ({ browser }) => {
    test.setTimeout(90_000);
    const contexts = await Promise.all([browser.newContext(), browser.newContext(), browser.newContext()]);
    try {
      const [guide, first, second] = (await Promise.all(contexts.map((context) => openPage(context, page.origin)))) as [Page, Page, Page];
      await join(guide, sfu.url, await tokenFor('guide', true), true);
      await join(first, sfu.url, await tokenFor('attendee-1', false), false);
      await expectFramesFlowing(first, 'guide');

      // An attendee who arrives later gets a key frame at once, not at the next periodic one.
      await join(second, sfu.url, await tokenFor('attendee-2', false), false);
      await expectFramesFlowing(second, 'guide');

      await room(guide).setCamera(false);
      for (const page of [first, second]) await expect.poll(async () => (await received(page, 'guide')).muted).toBe(true);
      await room(guide).setCamera(true);
      for (const page of [first, second]) {
        await expect.poll(async () => (await received(page, 'guide')).muted).toBe(false);
        const before = (await received(page, 'guide')).framesDecoded;
        await expect.poll(async () => (await received(page, 'guide')).framesDecoded, { timeout: 15_000 }).toBeGreaterThan(before + 5);
      }

      // Unpublished (not just muted): the publication is gone for everyone, the sound stays.
      await room(guide).unpublishCamera();
      for (const page of [first, second]) {
        await expect.poll(async () => (await received(page, 'guide')).muted).toBeNull();
        expect((await received(page, 'guide')).audioMuted).toBe(false);
      }
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  });

  test('an attendee without the publish grant cannot send media', async ({ browser }) => {
    test.setTimeout(60_000);
    const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
    try {
      const [guide, attendee] = (await Promise.all(contexts.map((context) => openPage(context, page.origin)))) as [Page, Page];
      await join(guide, sfu.url, await tokenFor('guide-2', true), false);
      await join(attendee, sfu.url, await tokenFor('attendee-3', false), false);
      // The grant reaches the client in the join response, so livekit-client refuses at once;
      // the server refuses the add-track too (sfu/tests/signalling.rs).
      await expect(room(attendee).setCamera(true)).rejects.toThrow();
      expect((await received(guide, 'attendee-3')).framesDecoded).toBe(0);
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  });

  test("the guide mutes an attendee's microphone, a removed attendee's media stops, a dropped one reconnects", async ({ browser }) => {
    test.setTimeout(120_000);
    const contexts = await Promise.all([browser.newContext(), browser.newContext(), browser.newContext()]);
    try {
      const [guide, speaker, viewer] = (await Promise.all(contexts.map((context) => openPage(context, page.origin)))) as [Page, Page, Page];
      await join(guide, sfu.url, await tokenFor('guide-3', true), true);
      await join(speaker, sfu.url, await tokenFor('speaker', true), true);
      await join(viewer, sfu.url, await tokenFor('viewer', false), false);
      await expectFramesFlowing(viewer, 'guide-3');
      await expectFramesFlowing(guide, 'speaker');

      // Mute-all as the hub does it: the server API, through LiveKit's own Node client.
      const api = new RoomServiceClient(sfu.url.replace('ws://', 'http://'), API_KEY, API_SECRET);
      const speakerInfo = (await api.listParticipants(ROOM)).find((p) => p.identity === 'speaker');
      const microphone = speakerInfo?.tracks.find((t) => t.type === TrackType.AUDIO);
      expect(microphone).toBeDefined();
      await api.mutePublishedTrack(ROOM, 'speaker', microphone!.sid, true);
      await expect.poll(async () => (await received(guide, 'speaker')).audioMuted).toBe(true);
      await expect.poll(async () => (await received(viewer, 'speaker')).audioMuted).toBe(true);

      // A removed participant's media stops at once, and its client hears why.
      await api.removeParticipant(ROOM, 'speaker');
      await expect.poll(() => speaker.evaluate(() => (window as unknown as { disconnectReason?: number }).disconnectReason)).toBe(4 /* PARTICIPANT_REMOVED */);
      await expect.poll(async () => (await received(guide, 'speaker')).framesDecoded).toBe(0);

      // A viewer whose signalling drops joins again and gets the guide's video back.
      await room(viewer).dropSignalling();
      await expect.poll(() => room(viewer).state(), { timeout: 20_000 }).toBe('connected');
      await expectFramesFlowing(viewer, 'guide-3');
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  });
});
