import { Track, type Participant } from 'livekit-client';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { VideoGrant } from '@/lib/hub';
import { mediaPreferences } from '@/lib/video/media-preferences';
import { speakerFirst } from '@/lib/video/speaker-order';
import { useVideoRoom } from '@/lib/video/use-video-room';
import { restoreBackgroundChoice } from './virtual-backgrounds';
import './video-stage.css';

function Tile({ participant }: { participant: Participant }) {
  const { t } = useTranslation();
  const isLocal = participant.isLocal;
  const videoRef = useRef<HTMLVideoElement>(null);
  const audioRef = useRef<HTMLAudioElement>(null);
  // A muted camera (turned off in the toolbar) shows the placeholder, not its last frame.
  const camera = participant.getTrackPublication(Track.Source.Camera);
  const video = camera && !camera.isMuted ? camera.videoTrack : undefined;
  const audio = isLocal ? undefined : participant.getTrackPublication(Track.Source.Microphone)?.audioTrack;
  useEffect(() => {
    const element = videoRef.current;
    if (!video || !element) return;
    video.attach(element);
    return () => {
      video.detach(element);
    };
  }, [video]);
  useEffect(() => {
    const element = audioRef.current;
    if (!audio || !element) return;
    audio.attach(element);
    return () => {
      audio.detach(element);
    };
  }, [audio]);
  return (
    <figure className="video-tile">
      {video ? <video ref={videoRef} muted={isLocal} playsInline autoPlay /> : <div className="video-tile__placeholder" aria-hidden="true" />}
      {audio && <audio ref={audioRef} autoPlay />}
      <figcaption>{isLocal ? t('video.you') : participant.name || participant.identity}</figcaption>
    </figure>
  );
}

function SpeakerTiles({ participants }: { participants: Participant[] }) {
  const [speaker, ...others] = speakerFirst(participants);
  if (!speaker) return null;
  return (
    <div className="video-stage__speaker">
      <Tile key={speaker.identity} participant={speaker} />
      {others.length > 0 && (
        <div className="video-stage__others">
          {others.map((participant) => (
            <Tile key={participant.identity} participant={participant} />
          ))}
        </div>
      )}
    </div>
  );
}

/** The video of the room, or a note that the room runs without video. */
export function VideoStage({
  grant,
  mutedAll,
  layout,
  cameraAllowed = true,
}: {
  grant: VideoGrant | null;
  mutedAll: boolean;
  layout: 'grid' | 'speaker';
  /** False when the appointment allows attendees sound only. */
  cameraAllowed?: boolean;
}) {
  const { t } = useTranslation();
  // The background effect this browser chose before (kept in its storage).
  useEffect(restoreBackgroundChoice, []);
  const preferences = useStore(mediaPreferences);
  const { status, participants, deviceError, effectFailed } = useVideoRoom(grant, preferences, mutedAll, cameraAllowed);

  if (!grant) {
    return (
      <p className="video-note" data-testid="video-status">
        {t('video.notConfigured')}
      </p>
    );
  }
  return (
    <div className={`video-stage video-stage--${layout}`} data-testid="video-status">
      {status === 'connecting' && <p className="video-note">{t('video.connecting')}</p>}
      {status === 'reconnecting' && <p className="video-note">{t('video.reconnecting')}</p>}
      {status === 'failed' && (
        <p className="alert" role="alert">
          {t('video.failed')}
        </p>
      )}
      {deviceError && (
        <p className="alert" role="alert">
          {t(`video.errors.${deviceError}`)}
        </p>
      )}
      {effectFailed && (
        <p className="alert" role="alert">
          {t('video.effectFailed')}
        </p>
      )}
      {mutedAll && <p className="video-note">{t('video.mutedByGuide')}</p>}
      {layout === 'grid' ? (
        <div className="video-stage__tiles">
          {participants.map((participant) => (
            <Tile key={participant.identity} participant={participant} />
          ))}
        </div>
      ) : (
        // The speaker large, everyone else in a strip of small tiles under it: all in view,
        // so that livekit-client's adaptive stream keeps every picture flowing.
        <SpeakerTiles participants={participants} />
      )}
    </div>
  );
}
