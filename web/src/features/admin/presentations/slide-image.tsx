import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdminApi } from '../api/context';
import { errorText } from '../api/errors';
import type { Media } from '../catalogue/types';
import { uploadProblem } from '../catalogue/products/product-images';

/** An image or text-with-image slide's picture: uploaded here (JPG, PNG, WebP up to 5 MB), shown once chosen. */
export function SlideImage({
  mediaId,
  alt,
  disabled,
  error,
  onChange,
}: {
  mediaId: string;
  alt: string;
  disabled: boolean;
  error?: string;
  onChange: (mediaId: string) => void;
}) {
  const { t } = useTranslation();
  const api = useAdminApi();
  const id = useId();
  const [media, setMedia] = useState<Media | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!mediaId) return;
    let current = true;
    api
      .search<Media>('media', { ids: [mediaId], limit: 1 })
      .then((found) => current && setMedia(found.data[0] ?? null))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [api, mediaId]);

  async function upload(file: File) {
    setProblem(null);
    const wrong = uploadProblem(file);
    if (wrong) {
      setProblem(t(`admin.products.${wrong}`));
      return;
    }
    setBusy(true);
    try {
      onChange(await api.upload(file, file.name, alt));
    } catch (failure) {
      setProblem(errorText(failure, t('admin.common.failed')));
    } finally {
      setBusy(false);
    }
  }

  const shown = mediaId && media?.id === mediaId ? media : null;
  return (
    <div className="field">
      <label htmlFor={`${id}-file`}>{t('admin.presentations.image')}</label>
      {shown?.url ? (
        <img className="admin-slide__image" src={shown.url} alt={shown.alt ?? ''} data-testid="slide-image" />
      ) : (
        !mediaId && <p className="muted">{t('admin.presentations.noImage')}</p>
      )}
      <input
        id={`${id}-file`}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        disabled={disabled || busy}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) void upload(file);
        }}
      />
      {(problem ?? error) && <p className="field__error">{problem ?? error}</p>}
    </div>
  );
}
