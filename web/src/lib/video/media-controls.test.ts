import { describe, expect, it } from 'vitest';
import { mediaControls, type MediaControlsInput } from './media-controls';

const attendee: MediaControlsInput = { guide: false, canPublish: true, broadcastMode: false, videoAudioSettings: 'both', mutedAll: false };

describe('mediaControls', () => {
  it('lets an attendee use both when the appointment has video and audio', () => {
    expect(mediaControls(attendee)).toEqual({ camera: { allowed: true, reason: null }, microphone: { allowed: true, reason: null } });
  });

  it('blocks both in broadcast mode, with broadcast as the reason', () => {
    const controls = mediaControls({ ...attendee, broadcastMode: true, canPublish: false });
    expect(controls.camera).toEqual({ allowed: false, reason: 'broadcast' });
    expect(controls.microphone).toEqual({ allowed: false, reason: 'broadcast' });
  });

  it('blocks both when the appointment has no media, and only the camera when it is audio only', () => {
    expect(mediaControls({ ...attendee, videoAudioSettings: 'none' }).camera.reason).toBe('noMedia');
    const audioOnly = mediaControls({ ...attendee, videoAudioSettings: 'audio-only' });
    expect(audioOnly.camera.reason).toBe('audioOnly');
    expect(audioOnly.microphone.allowed).toBe(true);
  });

  it("holds only the microphone while the guide has muted everyone", () => {
    const controls = mediaControls({ ...attendee, mutedAll: true });
    expect(controls.camera.allowed).toBe(true);
    expect(controls.microphone).toEqual({ allowed: false, reason: 'mutedByGuide' });
  });

  it('follows the token when it does not allow publishing', () => {
    expect(mediaControls({ ...attendee, canPublish: false }).camera.reason).toBe('notAllowed');
  });

  it('always lets the guide publish, whatever the room', () => {
    const controls = mediaControls({ guide: true, canPublish: true, broadcastMode: true, videoAudioSettings: 'none', mutedAll: true });
    expect(controls.camera.allowed && controls.microphone.allowed).toBe(true);
  });
});
