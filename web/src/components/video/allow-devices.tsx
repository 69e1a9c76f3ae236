import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestMedia, type DeviceError } from '@/lib/video/device-errors';

interface AllowDevicesProps {
  cameraId?: string | null;
  microphoneId?: string | null;
  /** Called once the devices opened, e.g. to list their labels. */
  onAllowed?: () => void;
}

/**
 * The allow-device steps: what to do, the browser's prompt, then a live preview or the
 * device error. The preview's tracks stop when the component goes.
 */
export function AllowDevices({ cameraId, microphoneId, onAllowed }: AllowDevicesProps) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [error, setError] = useState<DeviceError | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (videoRef.current && stream) videoRef.current.srcObject = stream;
    return () => stream?.getTracks().forEach((track) => track.stop());
  }, [stream]);

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
        </>
      ) : (
        <button type="button" className="button" onClick={allow} disabled={busy}>
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
