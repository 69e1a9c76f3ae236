import { Room, RoomEvent, Track, type LocalVideoTrack, type Participant } from 'livekit-client';
import { useEffect, useRef, useState } from 'react';
import type { VideoGrant } from '@/lib/hub';
import { applyBackgroundEffect } from './background';
import { deviceErrorOf, type DeviceError } from './device-errors';
import type { MediaPreferences } from './media-preferences';

export type VideoRoomStatus = 'off' | 'connecting' | 'connected' | 'failed';

export interface VideoRoomState {
  status: VideoRoomStatus;
  participants: Participant[];
  deviceError: DeviceError | null;
  /** The chosen background effect could not start; the camera runs without it. */
  effectFailed: boolean;
}

/**
 * Joins the LiveKit room of `grant` for as long as the component lives (or until the
 * grant's server or publish right changes) and publishes camera and microphone only when the grant allows it.
 * Without a grant (no LiveKit configured) it stays `off`.
 */
export function useVideoRoom(grant: VideoGrant | null, preferences: MediaPreferences, mutedAll: boolean, cameraAllowed = true): VideoRoomState {
  const [room, setRoom] = useState<Room | null>(null);
  const [state, setState] = useState<VideoRoomState>({ status: 'off', participants: [], deviceError: null, effectFailed: false });
  // The hub sends a fresh token after every reconnect of its own socket: the video room
  // keeps its session then (livekit-client resumes or rejoins on its own when the media
  // connection drops). Only another server or another publish right joins it anew.
  const url = grant?.url ?? null;
  const canPublish = grant?.canPublish ?? false;
  const token = useRef('');
  const latestToken = grant?.token ?? '';
  useEffect(() => {
    token.current = latestToken;
  }, [latestToken]);

  useEffect(() => {
    if (!url) {
      setState({ status: 'off', participants: [], deviceError: null, effectFailed: false });
      return;
    }
    const current = new Room({ adaptiveStream: true, dynacast: true });
    let cancelled = false;
    const refresh = () => {
      if (cancelled) return;
      setState((previous) => ({
        ...previous,
        participants: [current.localParticipant, ...current.remoteParticipants.values()],
      }));
    };
    for (const event of [
      RoomEvent.ParticipantConnected,
      RoomEvent.ParticipantDisconnected,
      RoomEvent.TrackSubscribed,
      RoomEvent.TrackUnsubscribed,
      RoomEvent.LocalTrackPublished,
      RoomEvent.LocalTrackUnpublished,
      RoomEvent.TrackMuted,
      RoomEvent.TrackUnmuted,
      RoomEvent.Reconnected,
    ]) {
      current.on(event, refresh);
    }
    setState({ status: 'connecting', participants: [], deviceError: null, effectFailed: false });
    current
      .connect(url, token.current)
      .then(() => {
        if (cancelled) return;
        setRoom(current);
        setState((previous) => ({ ...previous, status: 'connected' }));
        refresh();
      })
      .catch(() => !cancelled && setState((previous) => ({ ...previous, status: 'failed' })));
    return () => {
      cancelled = true;
      setRoom(null);
      void current.disconnect();
    };
  }, [url, canPublish]);

  // Camera and microphone follow the preferences (the toolbar's switches), the grant, the
  // appointment (audio only: no camera) and the guide's mute-all. Turning one off mutes the
  // published track, as LiveKit's own apps do: the camera light goes out, the sfu stops
  // forwarding it and tells the others, and turning it on again needs no new negotiation.
  const { cameraEnabled, microphoneEnabled, cameraId, microphoneId, effect, backgroundImage } = preferences;
  useEffect(() => {
    if (!room) return;
    const local = room.localParticipant;
    const camera = canPublish && cameraAllowed && cameraEnabled;
    const microphone = canPublish && microphoneEnabled && !mutedAll;
    let cancelled = false;
    async function publish() {
      try {
        await local.setCameraEnabled(camera, cameraId ? { deviceId: cameraId } : undefined);
        await local.setMicrophoneEnabled(microphone, microphoneId ? { deviceId: microphoneId } : undefined);
        const track = local.getTrackPublication(Track.Source.Camera)?.track as LocalVideoTrack | undefined;
        let effectFailed = false;
        if (track && camera) {
          await applyBackgroundEffect(track, effect, { image: backgroundImage }).catch((error: unknown) => {
            console.warn('the background effect could not start', error);
            effectFailed = true;
          });
        }
        if (!cancelled) setState((previous) => ({ ...previous, deviceError: null, effectFailed }));
      } catch (error) {
        if (!cancelled) {
          setState((previous) => ({ ...previous, deviceError: deviceErrorOf(error, { camera, microphone }) }));
        }
      }
    }
    void publish();
    return () => {
      cancelled = true;
    };
  }, [room, canPublish, cameraAllowed, cameraEnabled, microphoneEnabled, cameraId, microphoneId, effect, backgroundImage, mutedAll]);

  return state;
}
