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

/**
 * Whether WebGL renders in software (no GPU: SwiftShader, llvmpipe). Effects then run at
 * a few frames a second, or the page would stop answering.
 */
export function softwareRendering(): boolean {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return false;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  return /swiftshader|llvmpipe|software/i.test(renderer);
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

/** MediaPipe's runtime and the segmentation model, served by our own origin (vite.config.ts, public/mediapipe). */
const ASSET_PATHS = {
  tasksVisionFileSet: `${import.meta.env.BASE_URL}mediapipe`,
  // Made by scripts/segmenter-metadata.py.
  modelAssetPath: `${import.meta.env.BASE_URL}mediapipe/selfie_segmenter.tflite`,
};

/**
 * Puts `effect` on the camera track (or takes any effect off); loads the processors only
 * when needed, and switches a running one to the new effect. `image` is the virtual
 * background's picture (the built-in gradient without). `onFrame` is called for each
 * frame the effect has processed and `maxFps` caps the frame rate (both given when the
 * processor starts). Rejects when the effect cannot run (no WebGL 2, the model does not load).
 */
export async function applyBackgroundEffect(
  track: LocalVideoTrack,
  effect: BackgroundEffect,
  { onFrame, maxFps, image }: { onFrame?: () => void; maxFps?: number; image?: string | null } = {},
): Promise<void> {
  if (effect === 'none') {
    await track.stopProcessor();
    return;
  }
  const { BackgroundProcessor, BackgroundProcessorWrapper } = await import('@livekit/track-processors');
  const mode =
    effect === 'virtual'
      ? ({ mode: 'virtual-background', imagePath: image || virtualBackgroundImage() } as const)
      : ({ mode: 'background-blur', blurRadius: BLUR_RADIUS[effect] } as const);
  const running = track.getProcessor();
  if (running instanceof BackgroundProcessorWrapper) {
    await running.switchTo(mode);
    return;
  }
  await track.setProcessor(
    BackgroundProcessor({ ...mode, maxFps, assetPaths: ASSET_PATHS, onFrameProcessed: onFrame && (() => onFrame()) }),
  );
}
