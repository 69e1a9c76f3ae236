import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/ui/notifications';
import { UPLOAD_MAX_BYTES, UPLOAD_TYPES } from '../../api/client';
import { useAdminApi } from '../../api/context';
import { errorText } from '../../api/errors';
import { Notice } from '../../components/admin-page';
import type { Media, Product } from '../types';

/** Why a picked file cannot be uploaded (checked before sending; the API checks again), or null. */
export function uploadProblem(file: { type: string; size: number }): 'wrongType' | 'tooLarge' | null {
  if (!(file.type in UPLOAD_TYPES)) return 'wrongType';
  if (file.size > UPLOAD_MAX_BYTES) return 'tooLarge';
  return null;
}

/** A product's images: upload (JPG, PNG, WebP up to 5 MB) and remove; the first is the cover. */
export function ProductImages({ product, onChange }: { product: Product; onChange: () => Promise<void> }) {
  const { t } = useTranslation();
  const api = useAdminApi();
  const inputId = useId();
  const [media, setMedia] = useState<Media[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const links = product.media ?? [];
  const key = links.map((link) => link.mediaId).join(',');

  useEffect(() => {
    const ids = key ? key.split(',') : [];
    if (!ids.length) return;
    void api.search<Media>('media', { ids, limit: ids.length }).then((answer) => setMedia(answer.data)).catch(() => undefined);
  }, [api, key]);

  const save = (mediaIds: string[]) => api.patch('product', product.id, { media: mediaIds.map((mediaId, n) => ({ mediaId, position: n + 1 })) });

  const upload = async (file: File) => {
    setError(null);
    const problem = uploadProblem(file);
    if (problem) {
      setError(t(`admin.products.${problem}`));
      return;
    }
    setBusy(true);
    try {
      const mediaId = await api.upload(file, file.name, product.name ?? '');
      await save([...links.map((link) => link.mediaId), mediaId]);
      await onChange();
      notify(t('admin.products.uploaded'), { type: 'success' });
    } catch (failure) {
      setError(errorText(failure, t('admin.common.failed')));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (mediaId: string) => {
    try {
      await save(links.map((link) => link.mediaId).filter((id) => id !== mediaId));
      await api.remove('media', mediaId).catch(() => undefined);
      await onChange();
    } catch (failure) {
      setError(errorText(failure, t('admin.common.failed')));
    }
  };

  return (
    <section className="admin-form" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>{t('admin.products.images')}</h2>
      {error && <Notice>{error}</Notice>}
      {links.length === 0 ? (
        <p className="muted">{t('admin.products.noImages')}</p>
      ) : (
        <ul className="admin-images">
          {links.map((link) => {
            const file = media.find((m) => m.id === link.mediaId);
            const name = file?.fileName ?? link.mediaId.slice(0, 8);
            return (
              <li key={link.id}>
                {file?.url && <img src={file.url} alt={file.alt ?? ''} />}
                <button type="button" className="link-button link-button--danger" onClick={() => void remove(link.mediaId)}>
                  {t('admin.products.removeImage', { name })}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="field">
        <label htmlFor={inputId}>{t('admin.products.uploadImage')}</label>
        <input
          id={inputId}
          type="file"
          accept=".jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp"
          disabled={busy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void upload(file);
          }}
        />
      </div>
      {busy && <p role="status">{t('admin.products.uploading')}</p>}
    </section>
  );
}
