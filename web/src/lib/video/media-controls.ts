import type { VideoAudioSettings } from '@/protocol/generated';

/** Why a camera or microphone control is off limits (the key under `video.blocked`). */
export type MediaBlock = 'broadcast' | 'noMedia' | 'audioOnly' | 'mutedByGuide' | 'notAllowed';

export interface MediaControl {
  allowed: boolean;
  /** Why it is not allowed; null when it is. */
  reason: MediaBlock | null;
}

export interface MediaControlsInput {
  /** A guide always publishes. */
  guide: boolean;
  /** What the video token allows (the hub decides it from broadcast mode and the appointment). */
  canPublish: boolean;
  broadcastMode: boolean;
  videoAudioSettings: VideoAudioSettings;
  mutedAll: boolean;
}

const ALLOWED: MediaControl = { allowed: true, reason: null };
const blocked = (reason: MediaBlock): MediaControl => ({ allowed: false, reason });

/**
 * Whether this participant may turn camera and microphone on, and why not: an attendee
 * publishes only when the appointment has audio (and video for the camera), broadcast mode
 * is off and the token says so; the guide's mute-all holds attendees' microphones.
 */
export function mediaControls(input: MediaControlsInput): { camera: MediaControl; microphone: MediaControl } {
  if (input.guide) return { camera: ALLOWED, microphone: ALLOWED };
  if (input.broadcastMode) return { camera: blocked('broadcast'), microphone: blocked('broadcast') };
  if (input.videoAudioSettings === 'none') return { camera: blocked('noMedia'), microphone: blocked('noMedia') };
  if (!input.canPublish) return { camera: blocked('notAllowed'), microphone: blocked('notAllowed') };
  return {
    camera: input.videoAudioSettings === 'audio-only' ? blocked('audioOnly') : ALLOWED,
    microphone: input.mutedAll ? blocked('mutedByGuide') : ALLOWED,
  };
}
