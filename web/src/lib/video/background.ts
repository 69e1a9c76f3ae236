import type { LocalVideoTrack } from 'livekit-client';
import { BLUR_RADIUS, type BackgroundEffect } from './media-preferences';

/** Whether this browser can run background effects (`@livekit/track-processors`). */
export async function backgroundEffectsSupported(): Promise<boolean> {
  try {
    const { supportsBackgroundProcessors } = await import('@livekit/track-processors');
    return supportsBackgroundProcessors();
  } catch {
    return false;
  }
}

/** A calm gradient, drawn once, as the virtual background. */
function virtualBackgroundImage(): string {
  const canvas = document.createElement('canvas');
  canvas.width = 1280;
  canvas.height = 720;
  const context = canvas.getContext('2d');
  if (context) {
    const gradient = context.createLinearGradient(0, 0, 1280, 720);
    gradient.addColorStop(0, '#dfe7ff');
    gradient.addColorStop(1, '#2f54eb');
    context.fillStyle = gradient;
    context.fillRect(0, 0, 1280, 720);
  }
  return canvas.toDataURL('image/png');
}

/** Puts `effect` on the camera track (or takes any effect off); loads the processors only when needed. */
export async function applyBackgroundEffect(track: LocalVideoTrack, effect: BackgroundEffect): Promise<void> {
  if (effect === 'none') {
    await track.stopProcessor();
    return;
  }
  const { BackgroundBlur, VirtualBackground } = await import('@livekit/track-processors');
  const processor = effect === 'virtual' ? VirtualBackground(virtualBackgroundImage()) : BackgroundBlur(BLUR_RADIUS[effect]);
  await track.setProcessor(processor);
}
