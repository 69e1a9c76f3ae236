import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { modalStore } from '@/lib/ui/modal';
import { backgroundEffectsSupported } from '@/lib/video/background';
import { mediaPreferences, type BackgroundEffect } from '@/lib/video/media-preferences';
import { AllowDevices } from './allow-devices';
import { BackgroundPicker } from './background-picker';
import { BUNDLED_BACKGROUNDS, restoreBackgroundChoice, storeBackgroundChoice } from './virtual-backgrounds';
import './media-settings.css';

const EFFECTS: BackgroundEffect[] = ['none', 'light', 'medium', 'strong', 'virtual'];

function MediaSettings() {
  const { t } = useTranslation();
  const preferences = useStore(mediaPreferences);
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [cameraId, setCameraId] = useState(preferences.cameraId ?? '');
  const [microphoneId, setMicrophoneId] = useState(preferences.microphoneId ?? '');
  const [effect, setEffect] = useState(preferences.effect);
  const [backgroundImage, setBackgroundImage] = useState(preferences.backgroundImage ?? BUNDLED_BACKGROUNDS[0]!.url);
  const [effectsSupported, setEffectsSupported] = useState(false);

  const listDevices = useCallback(() => {
    navigator.mediaDevices
      ?.enumerateDevices()
      .then(setDevices)
      .catch(() => setDevices([]));
  }, []);
  useEffect(() => {
    listDevices();
    void backgroundEffectsSupported().then(setEffectsSupported);
  }, [listDevices]);

  // Devices have labels once this page may use them: then a device change opens the new one at once.
  const permitted = devices.some((device) => device.label !== '');
  const cameras = devices.filter((device) => device.kind === 'videoinput' && device.deviceId);
  const microphones = devices.filter((device) => device.kind === 'audioinput' && device.deviceId);

  function save() {
    mediaPreferences.getState().update({ cameraId: cameraId || null, microphoneId: microphoneId || null, effect, backgroundImage });
    storeBackgroundChoice(localStorage, { effect, backgroundImage });
    modalStore.getState().close();
  }

  return (
    <div className="media-settings">
      <AllowDevices
        key={`${cameraId}|${microphoneId}`}
        cameraId={cameraId}
        microphoneId={microphoneId}
        effect={effectsSupported ? effect : undefined}
        backgroundImage={backgroundImage}
        autoStart={permitted}
        onAllowed={listDevices}
      />
      <label className="field">
        <span className="field__label">{t('video.camera')}</span>
        <select value={cameraId} onChange={(event) => setCameraId(event.target.value)}>
          <option value="">{t('video.noDevice')}</option>
          {cameras.map((device, index) => (
            <option key={device.deviceId} value={device.deviceId}>
              {device.label || `${t('video.camera')} ${index + 1}`}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">{t('video.microphone')}</span>
        <select value={microphoneId} onChange={(event) => setMicrophoneId(event.target.value)}>
          <option value="">{t('video.noDevice')}</option>
          {microphones.map((device, index) => (
            <option key={device.deviceId} value={device.deviceId}>
              {device.label || `${t('video.microphone')} ${index + 1}`}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="media-settings__effects">
        <legend>{t('video.background')}</legend>
        {effectsSupported ? (
          EFFECTS.map((option) => (
            <label key={option} className="choice">
              <input type="radio" name="effect" value={option} checked={effect === option} onChange={() => setEffect(option)} />
              {t(`video.effects.${option}`)}
            </label>
          ))
        ) : (
          <p className="video-note">{t('video.effectsUnavailable')}</p>
        )}
      </fieldset>
      {effectsSupported && effect === 'virtual' && <BackgroundPicker value={backgroundImage} onChange={setBackgroundImage} />}
      <button type="button" className="button button--primary" onClick={save}>
        {t('video.save')}
      </button>
    </div>
  );
}

/** Opens the media settings modal: device choice, allow-device steps and preview, background effects. */
export function openMediaSettings(title: string): void {
  restoreBackgroundChoice();
  modalStore.getState().open(<MediaSettings />, { title, size: 'medium' });
}
