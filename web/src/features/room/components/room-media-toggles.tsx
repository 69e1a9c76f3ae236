import { useStore } from 'zustand';
import { MediaToggles } from '@/components/video/media-toggles';
import { mediaControls } from '@/lib/video/media-controls';
import type { RealtimeClient } from '../realtime/client';

/** The camera and microphone switches of a room's toolbar; none when the room runs without video. */
export function RoomMediaToggles({ client, guide }: { client: RealtimeClient; guide: boolean }) {
  const grant = useStore(client.store, (state) => state.video);
  const broadcastMode = useStore(client.store, (state) => state.snapshot?.stateForAll.broadcastMode ?? false);
  const videoAudioSettings = useStore(client.store, (state) => state.snapshot?.stateForAll.videoAudioSettings ?? 'none');
  const mutedAll = useStore(client.store, (state) => state.snapshot?.stateForAll.mutedAll ?? false);
  if (!grant) return null;
  const { camera, microphone } = mediaControls({ guide, canPublish: grant.canPublish, broadcastMode, videoAudioSettings, mutedAll });
  return <MediaToggles camera={camera} microphone={microphone} />;
}
