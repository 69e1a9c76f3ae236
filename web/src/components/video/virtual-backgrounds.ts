import { mediaPreferences, type BackgroundEffect, type MediaPreferences } from '@/lib/video/media-preferences';
import { validUpload } from '@/lib/validation';

/** A virtual background the room offers: word-free pictures (public/backgrounds, made by scripts/render-backgrounds.mjs). */
export interface BundledBackground {
  /** The translation key under `video.backgrounds`. */
  name: 'studio' | 'shelf' | 'lounge';
  url: string;
}

export const BUNDLED_BACKGROUNDS: BundledBackground[] = (['studio', 'shelf', 'lounge'] as const).map((name) => ({
  name,
  url: `${import.meta.env.BASE_URL}backgrounds/${name}.jpg`,
}));

/** The background choice is kept per browser (spec: blur levels and a virtual background with upload). */
export const BACKGROUND_STORAGE_KEY = 'salesroom.videoBackground';

type BackgroundChoice = Pick<MediaPreferences, 'effect' | 'backgroundImage'>;

const EFFECTS: BackgroundEffect[] = ['none', 'light', 'medium', 'strong', 'virtual'];

/** The stored choice, or nothing when none (or an unreadable one) is stored. */
export function storedBackgroundChoice(storage: Pick<Storage, 'getItem'>): Partial<BackgroundChoice> {
  try {
    const stored = JSON.parse(storage.getItem(BACKGROUND_STORAGE_KEY) ?? 'null') as Partial<BackgroundChoice> | null;
    if (!stored || !EFFECTS.includes(stored.effect as BackgroundEffect)) return {};
    const image = typeof stored.backgroundImage === 'string' ? stored.backgroundImage : null;
    return { effect: stored.effect, backgroundImage: image };
  } catch {
    return {};
  }
}

/** Keeps the choice for this browser; a full storage keeps it for this page only. */
export function storeBackgroundChoice(storage: Pick<Storage, 'setItem'>, choice: BackgroundChoice): void {
  try {
    storage.setItem(BACKGROUND_STORAGE_KEY, JSON.stringify({ effect: choice.effect, backgroundImage: choice.backgroundImage }));
  } catch (error) {
    console.warn('the background choice could not be kept for this browser', error);
  }
}

/** The media preferences start with the choice this browser made before. */
let restored = false;
export function restoreBackgroundChoice(): void {
  if (restored || typeof localStorage === 'undefined') return;
  restored = true;
  mediaPreferences.getState().update(storedBackgroundChoice(localStorage));
}

/** An upload that is not a JPG/JPEG or PNG of at most 5 MB (spec section 5). */
export class RejectedUpload extends Error {}

/** Uploaded pictures are scaled to this size (cover), small enough to keep in the browser's storage. */
const UPLOAD_WIDTH = 1280;
const UPLOAD_HEIGHT = 720;

/**
 * An uploaded picture as a virtual background: only JPG/JPEG or PNG up to 5 MB (else
 * `RejectedUpload`), scaled and cropped to 1280×720 and kept as a JPEG data URL.
 */
export async function backgroundFromUpload(file: File): Promise<string> {
  if (!validUpload(file)) throw new RejectedUpload(file.name);
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    // Named .png but no picture inside.
    throw new RejectedUpload(file.name);
  }
  const canvas = document.createElement('canvas');
  canvas.width = UPLOAD_WIDTH;
  canvas.height = UPLOAD_HEIGHT;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D canvas');
  const scale = Math.max(UPLOAD_WIDTH / bitmap.width, UPLOAD_HEIGHT / bitmap.height);
  const width = bitmap.width * scale;
  const height = bitmap.height * scale;
  context.drawImage(bitmap, (UPLOAD_WIDTH - width) / 2, (UPLOAD_HEIGHT - height) / 2, width, height);
  bitmap.close();
  return canvas.toDataURL('image/jpeg', 0.85);
}
