import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Schemas } from '@shopware/api-client/store-api-types';
import { Spinner } from '@/components/spinner';
import { useRuntimeConfig } from '@/config/runtime';
import { CmsPage } from '@/components/cms/cms-page';
import { HighlightedProduct } from './highlighted-product';
import { roomStoreClient } from '../api/store-client';
import { ROOM_CMS_CONTEXT, RoomSlideProvider, type RoomSlideTools } from './room-cms';
import './dynamic-page.css';

type CmsPageData = Schemas['CmsPage'];

/**
 * The product page the guide opened for everyone: the product's CMS layout with the
 * room's product elements (`GET /dsr/product/{id}`); without a layout, the product's summary.
 */
export function DynamicProductPage({ productId, tools, fallbackActions }: { productId: string; tools: RoomSlideTools; fallbackActions?: (name: string) => ReactNode }) {
  const { t } = useTranslation();
  const config = useRuntimeConfig();
  const [page, setPage] = useState<{ id: string; cms: CmsPageData | null } | null>(null);

  useEffect(() => {
    let cancelled = false;
    roomStoreClient(config, tools.contextToken)
      .invoke('dsrReadProductDetailPage get /dsr/product/{productId}', { pathParams: { productId } })
      .then(({ data }) => !cancelled && setPage({ id: productId, cms: (data.cmsPage as CmsPageData | null | undefined) ?? null }))
      .catch(() => !cancelled && setPage({ id: productId, cms: null }));
    return () => {
      cancelled = true;
    };
  }, [config, tools.contextToken, productId]);

  return (
    <section className="dynamic-page" data-testid="dynamic-page" aria-label={t('cockpit.productPage')}>
      {!page || page.id !== productId ? (
        <Spinner />
      ) : page.cms ? (
        <RoomSlideProvider value={tools}>
          <CmsPage page={page.cms} context={ROOM_CMS_CONTEXT} />
        </RoomSlideProvider>
      ) : (
        <HighlightedProduct productId={productId} contextToken={tools.contextToken} onOpen={(name) => tools.onOpen(productId, name)} actions={fallbackActions} />
      )}
    </section>
  );
}
