import { DisconnectReason, Room, RoomEvent, Track, type LocalVideoTrack, type Participant } from 'livekit-client';
import { useEffect, useRef, useState } from 'react';
import type { VideoGrant } from '@/lib/hub';
import { applyBackgroundEffect } from './background';
import { deviceErrorOf, type DeviceError } from './device-errors';
import type { MediaPreferences } from './media-preferences';
import { STUCK_RECONNECT_MS, rejoinDelay } from './rejoin';

/** Why a session ends for good: left on purpose, sent away, the room closed, joined elsewhere. */
const FINAL = new Set([
  DisconnectReason.CLIENT_INITIATED,
  DisconnectReason.PARTICIPANT_REMOVED,
  DisconnectReason.ROOM_DELETED,
  DisconnectReason.DUPLICATE_IDENTITY,
]);

export type VideoRoomStatus = 'off' | 'connecting' | 'connected' | 'reconnecting' | 'failed';

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
 * Without a grant (no LiveKit configured) it stays `off`. A join that fails, a session
 * livekit-client gave up on, or a reconnect that hangs is joined anew (see `rejoin.ts`).
 */
export function useVideoRoom(grant: VideoGrant | null, preferences: MediaPreferences, mutedAll: boolean, cameraAllowed = true): VideoRoomState {
  const [room, setRoom] = useState<Room | null>(null);
  const [state, setState] = useState<VideoRoomState>({ status: 'off', participants: [], deviceError: null, effectFailed: false });
  // Each join anew is a new room (a new generation); `failures` counts them since the last
  // good connection, for the back-off.
  const [generation, setGeneration] = useState(0);
  const failures = useRef(0);
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
    // singlePeerConnection off: livekit-client then signals on `/rtc` at once. On, it first
    // tries `/rtc/v1` (LiveKit's single peer connection), which the embedded sfu does not
    // speak: a failed WebSocket and a `/rtc/v1/validate` 404 in every room's console before
    // the fallback. LiveKit servers speak both.
    const current = new Room({ adaptiveStream: true, dynacast: true, singlePeerConnection: false });
    let cancelled = false;
    let rejoinTimer: ReturnType<typeof setTimeout> | undefined;
    const rejoinIn = (delay: number) => {
      clearTimeout(rejoinTimer);
      rejoinTimer = setTimeout(() => !cancelled && setGeneration((count) => count + 1), delay);
    };
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
    current.on(RoomEvent.Reconnecting, () => {
      if (cancelled) return;
      setState((previous) => ({ ...previous, status: 'reconnecting' }));
      rejoinIn(STUCK_RECONNECT_MS);
    });
    current.on(RoomEvent.Reconnected, () => {
      if (cancelled) return;
      clearTimeout(rejoinTimer);
      setState((previous) => ({ ...previous, status: 'connected' }));
    });
    current.on(RoomEvent.Disconnected, (reason?: DisconnectReason) => {
      // Left on purpose (this effect's cleanup) or sent away by the server: nothing to rejoin.
      if (cancelled || (reason !== undefined && FINAL.has(reason))) return;
      setState((previous) => ({ ...previous, status: 'reconnecting' }));
      rejoinIn(rejoinDelay(failures.current++));
    });
    // The first join says it connects; a join anew keeps saying what went wrong until it works.
    if (failures.current === 0) setState({ status: 'connecting', participants: [], deviceError: null, effectFailed: false });
    current
      .connect(url, token.current)
      .then(() => {
        if (cancelled) return;
        setRoom(current);
        failures.current = 0;
        setState((previous) => ({ ...previous, status: 'connected' }));
        refresh();
      })
      .catch(() => {
        if (cancelled) return;
        setState((previous) => ({ ...previous, status: 'failed' }));
        rejoinIn(rejoinDelay(failures.current++));
      });
    return () => {
      cancelled = true;
      clearTimeout(rejoinTimer);
      setRoom(null);
      void current.disconnect();
    };
  }, [url, canPublish, generation]);

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
