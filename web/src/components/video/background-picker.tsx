import { useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { BUNDLED_BACKGROUNDS, backgroundFromUpload, RejectedUpload } from './virtual-backgrounds';
import './background-picker.css';

/**
 * The virtual background's picture: the bundled ones, the attendee's own upload (JPG/JPEG
 * or PNG, at most 5 MB), each a radio with its thumbnail.
 */
export function BackgroundPicker({ value, onChange }: { value: string; onChange: (image: string) => void }) {
  const { t } = useTranslation();
  const bundled = BUNDLED_BACKGROUNDS.some((background) => background.url === value);
  // The own picture stays offered after another one is picked, until the settings close.
  const [uploaded, setUploaded] = useState<string | null>(bundled ? null : value);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    setBusy(true);
    try {
      const image = await backgroundFromUpload(file);
      setUploaded(image);
      onChange(image);
    } catch (failure) {
      setError(failure instanceof RejectedUpload ? t('validation.upload') : t('errors.generic'));
    } finally {
      setBusy(false);
    }
  }

  const choices = [
    ...BUNDLED_BACKGROUNDS.map((background) => ({ url: background.url, label: t(`video.backgrounds.${background.name}`) })),
    ...(uploaded ? [{ url: uploaded, label: t('video.backgrounds.own') }] : []),
  ];
  return (
    <fieldset className="background-picker">
      <legend>{t('video.backgrounds.title')}</legend>
      <div className="background-picker__choices">
        {choices.map((choice) => (
          <label key={choice.label} className="background-picker__choice">
            <input type="radio" name="background-image" checked={value === choice.url} onChange={() => onChange(choice.url)} />
            <img src={choice.url} alt="" />
            <span>{choice.label}</span>
          </label>
        ))}
      </div>
      <label className="field background-picker__upload">
        <span className="field__label">{t('video.backgrounds.upload')}</span>
        <input
          type="file"
          accept="image/jpeg,image/png,.jpg,.jpeg,.png"
          disabled={busy}
          aria-describedby="background-upload-hint"
          onChange={(event) => void upload(event)}
        />
        <span id="background-upload-hint" className="background-picker__hint">
          {t('video.backgrounds.uploadHint')}
        </span>
      </label>
      {error && (
        <p className="alert" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
