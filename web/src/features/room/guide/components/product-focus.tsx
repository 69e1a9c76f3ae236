import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import { HighlightedProduct } from '../../components/highlighted-product';
import type { GuideSession } from '../session/guide-session';
import type { InsightsState } from '../stores/insights';
import { SaveProductButton } from './save-product-button';
import './product-focus.css';

/** The cockpit's product in focus: who likes it, and opening or closing its product page for everyone. */
export function ProductFocus({
  session,
  contextToken,
  canAct,
  act,
}: {
  session: GuideSession;
  contextToken: string;
  canAct: boolean;
  /** Runs a hub request; a failure shows the cockpit's alert. */
  act: (request: () => Promise<unknown>) => Promise<void>;
}) {
  const { t } = useTranslation();
  const productId = useStore(session.client.store, (state) => state.snapshot?.stateForAll.currentGuideProductId ?? null);
  const pageOpen = useStore(session.client.store, (state) => !!state.snapshot?.stateForAll.currentDynamicPage);
  return (
    <>
      {productId && (
        <HighlightedProduct
          productId={productId}
          contextToken={contextToken}
          actions={(name) => (
            <>
              <LikedBy insights={session.insights} productId={productId} />
              <SaveProductButton session={session} product={{ id: productId, name }} />
            </>
          )}
        />
      )}
      <div className="confirm__actions dynamic-page-controls">
        {productId && !pageOpen && (
          <button type="button" className="button" disabled={!canAct} onClick={() => void act(() => session.openProductPage(productId))}>
            {t('cockpit.openProductPage')}
          </button>
        )}
        {pageOpen && (
          <button type="button" className="button" disabled={!canAct} onClick={() => void act(() => session.closePages())}>
            {t('cockpit.closePage')}
          </button>
        )}
      </div>
    </>
  );
}

/** How many attendees like the highlighted product. */
function LikedBy({ insights, productId }: { insights: StoreApi<InsightsState>; productId: string }) {
  const { t } = useTranslation();
  const count = useStore(insights, (state) => Object.values(state.likes).filter((ids) => ids.includes(productId)).length);
  return (
    <p className="highlight__liked" data-testid="liked-by">
      {t('cockpit.likedBy', { count })}
    </p>
  );
}
