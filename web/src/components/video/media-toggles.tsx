import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { mediaPreferences } from '@/lib/video/media-preferences';
import type { MediaControl } from '@/lib/video/media-controls';

/**
 * The room toolbar's camera and microphone switches (toggle buttons: pressed = on). They
 * set this tab's media preferences, which the video room follows (livekit-client mutes or
 * unmutes the published track). A switch the participant may not use is disabled, and says why.
 */
export function MediaToggles({ camera, microphone }: { camera: MediaControl; microphone: MediaControl }) {
  const { t } = useTranslation();
  const { cameraEnabled, microphoneEnabled } = useStore(mediaPreferences);
  return (
    <>
      <MediaToggle
        label={t('video.camera')}
        control={camera}
        on={cameraEnabled}
        hint={cameraEnabled ? t('video.cameraOff') : t('video.cameraOn')}
        onToggle={() => mediaPreferences.getState().update({ cameraEnabled: !cameraEnabled })}
      />
      <MediaToggle
        label={t('video.microphone')}
        control={microphone}
        on={microphoneEnabled}
        hint={microphoneEnabled ? t('video.microphoneOff') : t('video.microphoneOn')}
        onToggle={() => mediaPreferences.getState().update({ microphoneEnabled: !microphoneEnabled })}
      />
    </>
  );
}

function MediaToggle({ label, control, on, hint, onToggle }: { label: string; control: MediaControl; on: boolean; hint: string; onToggle: () => void }) {
  const { t } = useTranslation();
  const reasonId = useId();
  const reason = control.reason ? t(`video.blocked.${control.reason}`) : null;
  return (
    <>
      <button
        type="button"
        className="button"
        aria-pressed={control.allowed && on}
        disabled={!control.allowed}
        title={reason ?? hint}
        aria-describedby={reason ? reasonId : undefined}
        onClick={onToggle}
      >
        {label}
      </button>
      {reason && (
        <span id={reasonId} className="visually-hidden">
          {reason}
        </span>
      )}
    </>
  );
}
