import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { configValue, videoEmbedUrl } from '../mapping';
import type { CmsElementProps } from '../context';
import './video.css';

function Video({ slot, provider }: CmsElementProps & { provider: 'youtube' | 'vimeo' }) {
  const { t } = useTranslation();
  const videoId = configValue<string>(slot, 'videoID') ?? '';
  const needsConfirmation = configValue<boolean>(slot, 'needsConfirmation') ?? false;
  const [confirmed, setConfirmed] = useState(!needsConfirmation);
  const preview = (slot.data as { previewMedia?: { url?: string } } | undefined)?.previewMedia?.url;
  const providerName = provider === 'youtube' ? 'YouTube' : 'Vimeo';
  if (!videoId) return null;
  const src = videoEmbedUrl(provider, {
    videoId,
    autoPlay: configValue<boolean>(slot, 'autoPlay'),
    loop: configValue<boolean>(slot, 'loop'),
    showControls: configValue<boolean>(slot, 'showControls'),
    start: Number(configValue<string | number>(slot, 'start')) || undefined,
    end: Number(configValue<string | number>(slot, 'end')) || undefined,
    advancedPrivacyMode: configValue<boolean>(slot, 'advancedPrivacyMode'),
  });
  return (
    <div className="cms-video">
      {confirmed ? (
        <iframe
          src={src}
          title={`${providerName} ${t('cms.video')}`}
          loading="lazy"
          allow="autoplay; fullscreen; picture-in-picture; encrypted-media"
          allowFullScreen
          referrerPolicy="strict-origin-when-cross-origin"
        />
      ) : (
        <div className="cms-video__consent" style={preview ? { backgroundImage: `url("${preview}")` } : undefined}>
          <p>{t('cms.videoConsent', { provider: providerName })}</p>
          <button type="button" className="button button--primary" onClick={() => setConfirmed(true)}>
            {t('cms.playVideo')}
          </button>
        </div>
      )}
    </div>
  );
}

export const CmsYoutubeVideo = (props: CmsElementProps) => <Video {...props} provider="youtube" />;
export const CmsVimeoVideo = (props: CmsElementProps) => <Video {...props} provider="vimeo" />;
