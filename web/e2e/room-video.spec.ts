import { chromium, expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { startServers, type Servers } from './global-setup';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium';
import { guideLogsIn, joinAsGuest, submitPrejoin } from './logins';

/*
 * Video at the device level, in Chromium with fake devices (two cameras, see
 * test.use below): the pre-join preview, the allow-device steps, a refused permission,
 * the media settings with device choice and background effects, a browser without
 * WebGL 2, and a room whose LiveKit server cannot be reached. No LiveKit server runs
 * here: the hub mints real tokens for a closed port and the room must go on without video.
 */

const CHROMIUM_ARGS = [...CHROMIUM_FLAGS, '--use-fake-device-for-media-stream=device-count=2'];

test.use({
  actionTimeout: 15_000,
  // The fake UI grants every camera and microphone prompt.
  launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, '--use-fake-ui-for-media-stream'] },
});

/** The preview's live picture: its video has frames of a real size. */
async function expectLiveVideo(video: Locator) {
  await expect(video).toBeVisible();
  // A background effect renders in software here: its first frames may take a while.
  await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.videoWidth), { timeout: 30_000 }).toBeGreaterThan(0);
}

async function openPrejoinPreview(page: Page) {
  await page.goto('/presentation/demo/prejoin');
  await page.getByText('Camera and microphone', { exact: true }).click();
}

async function openMediaSettings(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Media settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Media settings' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('the pre-join preview shows the camera live after the allow-device steps', async ({ page }) => {
  await openPrejoinPreview(page);
  await expect(page.getByText('Select “Allow devices”.')).toBeVisible();
  await expect(page.getByText('Confirm in your browser’s prompt')).toBeVisible();
  await page.getByRole('button', { name: 'Allow devices' }).click();
  await expect(page.getByText('Your camera and microphone are ready.')).toBeVisible();
  await expectLiveVideo(page.getByLabel('Video preview'));
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a refused camera permission shows the permissions-denied error, and joining still works', async ({ baseURL }) => {
  // Without the fake UI, a headless browser refuses the camera and microphone prompt.
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await openPrejoinPreview(page);
  await page.getByRole('button', { name: 'Allow devices' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Access to camera and microphone was denied. Allow it in your browser settings and try again.',
  );
  await expect(page.getByLabel('Video preview')).toHaveCount(0);
  await submitPrejoin(page, 'Denise Denied');
  // The waiting room, or the room when another spec has started the shared demo.
  await expect(page).toHaveURL(/\/presentation\/demo(\/waiting)?$/);
  await expect(page.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
  await browser.close();
});

test('the media settings list the fake devices, switch the camera and preview each background effect', async ({ page }) => {
  // Segmentation runs in software here (no GPU): each effect takes its time.
  test.setTimeout(240_000);
  await guideLogsIn(page);
  const dialog = await openMediaSettings(page);
  // The browser has granted the devices (fake UI): the preview opens without the allow step.
  const preview = dialog.getByLabel('Video preview');
  await expectLiveVideo(preview);

  const camera = dialog.getByRole('combobox', { name: 'Camera' });
  const microphone = dialog.getByRole('combobox', { name: 'Microphone' });
  await expect(camera.locator('option')).toHaveCount(3); // none and the two fake cameras
  await expect.poll(async () => (await microphone.locator('option').count()) > 1).toBe(true);
  const cameraIds = await camera.locator('option').evaluateAll((options: HTMLOptionElement[]) => options.map((o) => o.value).filter(Boolean));
  expect(cameraIds).toHaveLength(2);

  // Another camera: the preview opens it at once (the page may use devices already).
  const usedCamera = () => preview.evaluate((element: HTMLVideoElement) => (element.srcObject as MediaStream | null)?.getVideoTracks()[0]?.getSettings().deviceId);
  await camera.selectOption(cameraIds[1]!);
  await expectLiveVideo(preview);
  await expect.poll(usedCamera).toBe(cameraIds[1]);
  await camera.selectOption(cameraIds[0]!);
  await expect.poll(usedCamera).toBe(cameraIds[0]);

  // Every effect runs through @livekit/track-processors on the preview (WebGL 2 by SwiftShader).
  for (const effect of ['Light blur', 'Medium blur', 'Strong blur', 'Virtual background']) {
    // The page answers slowly while software WebGL renders the effect.
    await dialog.getByRole('radio', { name: effect }).check({ timeout: 60_000 });
    await expect(dialog.getByTestId('effect-status')).toHaveText(`Background effect on: ${effect}.`, { timeout: 60_000 });
  }
  await expectLiveVideo(preview);
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('radio', { name: 'No effect' }).check({ timeout: 60_000 });
  await expect(dialog.getByTestId('effect-status')).toHaveCount(0);

  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  // The choice is kept: the settings open with the second camera chosen.
  await camera.page().getByRole('button', { name: 'Media settings' }).click();
  await expect(page.getByRole('dialog', { name: 'Media settings' }).getByRole('combobox', { name: 'Camera' })).toHaveValue(cameraIds[0]!);
});

test('a virtual background: a bundled picture or an own upload (JPG/PNG, at most 5 MB), kept for this browser, in English and German', async ({ page }) => {
  // Segmentation runs in software here (no GPU): the preview's effect takes its time.
  test.setTimeout(240_000);
  await guideLogsIn(page);
  const dialog = await openMediaSettings(page);
  await dialog.getByRole('radio', { name: 'Virtual background' }).check({ timeout: 60_000 });
  const pictures = dialog.getByRole('group', { name: 'Background picture' });
  await expect(pictures.getByRole('radio')).toHaveCount(3);
  await expect(pictures.getByRole('radio', { name: 'Studio' })).toBeChecked();
  const upload = pictures.getByLabel('Upload your own picture');
  await upload.setInputFiles({ name: 'party.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') }, { timeout: 60_000 });
  await expect(pictures.getByRole('alert')).toHaveText('Only JPG/JPEG or PNG files up to 5 MB are allowed.', { timeout: 30_000 });
  await upload.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) }, { timeout: 60_000 });
  await expect(pictures.getByRole('alert')).toHaveText('Only JPG/JPEG or PNG files up to 5 MB are allowed.');
  await expect(pictures.getByRole('radio')).toHaveCount(3);
  // A real photo-sized JPEG: one of the bundled pictures under another name.
  const jpeg = readFileSync(fileURLToPath(new URL('../public/backgrounds/lounge.jpg', import.meta.url)));
  await upload.setInputFiles({ name: 'my-office.jpg', mimeType: 'image/jpeg', buffer: jpeg }, { timeout: 60_000 });
  await expect(pictures.getByRole('radio', { name: 'Your picture' })).toBeChecked({ timeout: 30_000 });
  await expect(pictures.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Save' }).click({ timeout: 60_000 });
  await expect(dialog).toBeHidden();

  // Another visit of this browser, in German: the choice is still there.
  await page.goto('/de-DE/guide/demo');
  await expect(page.getByRole('status', { name: 'Live-Verbindung' })).toHaveText('Verbunden');
  await page.getByRole('button', { name: 'Geräte' }).click();
  const german = page.getByRole('dialog', { name: 'Medieneinstellungen' });
  await expect(german.getByRole('radio', { name: 'Virtueller Hintergrund' })).toBeChecked();
  const bilder = german.getByRole('group', { name: 'Hintergrundbild' });
  await expect(bilder.getByRole('radio', { name: 'Ihr Bild' })).toBeChecked();
  await bilder.getByLabel('Eigenes Bild hochladen').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }, { timeout: 60_000 });
  await expect(bilder.getByRole('alert')).toHaveText('Nur JPG/JPEG- oder PNG-Dateien bis 5 MB sind erlaubt.');
  await bilder.getByRole('radio', { name: 'Regale' }).check({ timeout: 60_000 });
  await german.getByRole('button', { name: 'Speichern' }).click({ timeout: 60_000 });
  await page.reload();
  await page.getByRole('button', { name: 'Geräte' }).click();
  await expect(page.getByRole('dialog', { name: 'Medieneinstellungen' }).getByRole('radio', { name: 'Regale' })).toBeChecked();

  // On a phone (issue #14, item 6), in German and in English: the choice is kept, the
  // pictures and the upload are there, and the dialog fits the width.
  await test.step('on a phone, in German and in English', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const { path, button, title, picture, upload } of [
      { path: '/de-DE/guide/demo', button: 'Geräte', title: 'Medieneinstellungen', picture: 'Regale', upload: 'Eigenes Bild hochladen' },
      { path: '/guide/demo', button: 'Media settings', title: 'Media settings', picture: 'Shelves', upload: 'Upload your own picture' },
    ]) {
      await page.goto(path);
      await page.getByRole('button', { name: button }).click();
      const phoneDialog = page.getByRole('dialog', { name: title });
      await expect(phoneDialog.getByRole('radio', { name: picture })).toBeChecked();
      await expect(phoneDialog.getByLabel(upload)).toBeAttached();
      // The dialog fits the phone's width. The software segmentation keeps the page busy, so
      // the measurement is given time.
      const edges = () =>
        phoneDialog.evaluate((element) => {
          const box = element.getBoundingClientRect();
          return { left: box.left, right: box.right, width: window.innerWidth };
        });
      await expect.poll(async () => (await edges()).width, { timeout: 60_000 }).toBe(390);
      const { left, right } = await edges();
      expect(left).toBeGreaterThanOrEqual(0);
      expect(right).toBeLessThanOrEqual(390.5);
    }
  });
});

test('a browser without WebGL 2 says that background effects are not supported', async ({ browser }) => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    // Unbound on purpose: the replacement calls it with each canvas as `this`.
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, kind: string, ...rest: unknown[]) {
      return kind === 'webgl2' ? null : (getContext as (...args: unknown[]) => unknown).call(this, kind, ...rest);
    } as typeof getContext;
  });
  const page = await context.newPage();
  await guideLogsIn(page);
  const dialog = await openMediaSettings(page);
  await expect(dialog.getByText('Background effects are not supported in this browser.')).toBeVisible();
  await expect(dialog.getByRole('radio')).toHaveCount(0);
  await expectLiveVideo(dialog.getByLabel('Video preview'));
  await context.close();
});

test.describe('with LiveKit configured but unreachable', () => {
  let servers: Servers;
  let livekitUrl: string;

  test.beforeAll(async () => {
    // A port that was free a moment ago and that nothing listens on.
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    livekitUrl = `ws://127.0.0.1:${port}`;
    servers = await startServers({
      env: { LIVEKIT_URL: livekitUrl, LIVEKIT_API_KEY: 'e2e-key', LIVEKIT_API_SECRET: 'e2e-livekit-secret-at-least-32-chars' },
    });
  });

  test.afterAll(async () => {
    await servers?.teardown();
  });

  /** Opens a page and collects the hub's video tokens sent to it. */
  async function trackedPage(browser: Browser): Promise<{ page: Page; context: BrowserContext; tokens: { url: string; token: string; canPublish: boolean }[] }> {
    const context = await browser.newContext({ baseURL: servers.origin });
    const page = await context.newPage();
    const tokens: { url: string; token: string; canPublish: boolean }[] = [];
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (typeof payload !== 'string' || !payload.includes('videoToken')) return;
        const frame = JSON.parse(payload) as { type?: string; url: string; token: string; canPublish: boolean };
        if (frame.type === 'videoToken') tokens.push(frame);
      }),
    );
    return { page, context, tokens };
  }

  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

  test('the hub mints video tokens, the failed connection is shown and the room goes on without video', async ({ browser }) => {
    test.setTimeout(120_000);
    const guide = await trackedPage(browser);
    await guideLogsIn(guide.page);
    await expect.poll(() => guide.tokens.length).toBeGreaterThan(0);
    const guideToken = guide.tokens.at(-1)!;
    expect(guideToken.url).toBe(livekitUrl);
    expect(guideToken.canPublish).toBe(true);
    expect(claimsOf(guideToken.token)).toMatchObject({ iss: 'e2e-key', video: { roomJoin: true, canPublish: true, canSubscribe: true } });
    const failed = 'The video server could not be reached: the presentation goes on without video.';
    await expect(guide.page.getByTestId('video-status').getByRole('alert')).toHaveText(failed, { timeout: 30_000 });

    const attendee = await trackedPage(browser);
    await joinAsGuest(attendee.page, 'Vera Video');

    await guide.page.getByRole('button', { name: 'Start presentation' }).click();
    await guide.page.getByRole('dialog', { name: 'Start the presentation?' }).getByRole('button', { name: 'Start now' }).click();
    await expect(attendee.page).toHaveURL(/\/presentation\/demo$/);
    await expect.poll(() => attendee.tokens.length).toBeGreaterThan(0);
    const attendeeClaims = claimsOf(attendee.tokens.at(-1)!.token);
    expect(attendeeClaims).toMatchObject({ name: 'Vera Video', video: { roomJoin: true, canSubscribe: true } });
    expect(attendeeClaims.video).toHaveProperty('room', (claimsOf(guideToken.token).video as { room: string }).room);
    await expect(attendee.page.getByTestId('video-status').getByRole('alert')).toHaveText(failed, { timeout: 30_000 });

    // The room itself works: slides follow the guide.
    await expect(attendee.page.getByTestId('slide-position')).toHaveText('Slide 1');
    await guide.page.getByRole('button', { name: 'Next slide' }).click();
    await expect(attendee.page.getByTestId('slide-position')).toHaveText('Slide 2');
    await expect(attendee.page.getByRole('status', { name: 'Live connection' })).toHaveText('Connected');
    await guide.context.close();
    await attendee.context.close();
  });
});
