import { LocalVideoTrack } from 'livekit-client';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { applyBackgroundEffect, softwareRendering } from '@/lib/video/background';
import { requestMedia, type DeviceError } from '@/lib/video/device-errors';
import type { BackgroundEffect } from '@/lib/video/media-preferences';
import './allow-devices.css';

interface AllowDevicesProps {
  cameraId?: string | null;
  microphoneId?: string | null;
  /** A background effect to show on the preview (media settings). */
  effect?: BackgroundEffect;
  /** The virtual background's picture, for `effect` 'virtual'. */
  backgroundImage?: string | null;
  /** Opens the devices at once (the page may use them already), without the allow step. */
  autoStart?: boolean;
  /** Called once the devices opened, e.g. to list their labels. */
  onAllowed?: () => void;
}

/**
 * The preview's effect runs at a low frame rate: segmentation blocks the page for each
 * frame, and without a GPU the settings would stop answering at 30.
 */
const previewMaxFps = () => (softwareRendering() ? 2 : 8);

/** Where the preview's background effect is: off, loading, running, or failed to start. */
type EffectStatus = 'none' | 'starting' | 'running' | 'failed';

/**
 * The allow-device steps: what to do, the browser's prompt, then a live preview or the
 * device error. With `effect`, the preview shows that background effect (or says why it
 * cannot). The preview's tracks stop when the component goes.
 */
export function AllowDevices({ cameraId, microphoneId, effect, backgroundImage, autoStart = false, onAllowed }: AllowDevicesProps) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [track, setTrack] = useState<LocalVideoTrack | null>(null);
  const [error, setError] = useState<DeviceError | null>(null);
  const [busy, setBusy] = useState(false);
  const [effectStatus, setEffectStatus] = useState<EffectStatus>('none');

  useEffect(() => {
    const camera = stream?.getVideoTracks()[0];
    const element = videoRef.current;
    const preview = camera ? new LocalVideoTrack(camera, undefined, true) : null;
    if (preview && element) preview.attach(element);
    // The preview track is an outside resource made from the stream and stopped with it, so
    // it is created here, in the effect that owns its lifetime, and handed to render.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setTrack(preview);
    return () => {
      if (preview && element) preview.detach(element);
      void preview?.stopProcessor();
      stream?.getTracks().forEach((device) => device.stop());
    };
  }, [stream]);

  useEffect(() => {
    if (!track || effect === undefined) return;
    let cancelled = false;
    // The status belongs to the processor this effect starts on the track (an outside resource).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setEffectStatus(effect === 'none' ? 'none' : 'starting');
    // Frames of the running effect say it works; the processor keeps this callback across switches.
    const processed = () => setEffectStatus((status) => (status === 'starting' ? 'running' : status));
    applyBackgroundEffect(track, effect, { onFrame: processed, maxFps: previewMaxFps(), image: backgroundImage }).catch((failure: unknown) => {
      console.warn('the background effect could not start', failure);
      if (!cancelled) setEffectStatus('failed');
    });
    return () => {
      cancelled = true;
    };
  }, [track, effect, backgroundImage]);

  const started = useRef(false);
  useEffect(() => {
    if (!autoStart || started.current) return;
    started.current = true;
    void allow();
    // Once: later changes of the devices come with a new component (a new key).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [autoStart]);

  async function allow() {
    setBusy(true);
    setError(null);
    const result = await requestMedia({
      camera: true,
      microphone: true,
      cameraId: cameraId ?? undefined,
      microphoneId: microphoneId ?? undefined,
    });
    setBusy(false);
    if (result.ok) {
      setStream(result.stream);
      onAllowed?.();
    } else {
      setError(result.error);
    }
  }

  return (
    <div className="allow-devices">
      {!stream && (
        <ol className="allow-devices__steps">
          <li>{t('video.allowStep1')}</li>
          <li>{t('video.allowStep2')}</li>
        </ol>
      )}
      {stream ? (
        <>
          <video ref={videoRef} className="allow-devices__preview" aria-label={t('video.preview')} muted playsInline autoPlay />
          <p className="allow-devices__ok" role="status">
            {t('video.allowed')}
          </p>
          {effectStatus === 'starting' && <p className="video-note">{t('video.effectStarting')}</p>}
          {effectStatus === 'running' && (
            <p className="video-note" data-testid="effect-status">
              {t('video.effectRunning', { effect: t(`video.effects.${effect ?? 'none'}`) })}
            </p>
          )}
          {effectStatus === 'failed' && (
            <p className="alert" role="alert">
              {t('video.effectFailed')}
            </p>
          )}
        </>
      ) : (
        <button type="button" className="button" onClick={() => void allow()} disabled={busy}>
          {t('video.allowButton')}
        </button>
      )}
      {error && (
        <p className="alert" role="alert">
          {t(`video.errors.${error}`)}
        </p>
      )}
    </div>
  );
}
