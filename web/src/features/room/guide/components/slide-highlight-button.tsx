import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { GuideSession } from '../session/guide-session';

/**
 * Beside each product of the slide in the cockpit: shows that product to everyone as the
 * product in focus (pressed while it is the one in focus).
 */
export function SlideHighlightButton({
  session,
  product,
  act,
}: {
  session: GuideSession;
  product: { id: string; name: string };
  /** Runs a hub request; a failure shows the cockpit's alert. */
  act: (request: () => Promise<unknown>) => Promise<void>;
}) {
  const { t } = useTranslation();
  const inFocus = useStore(session.client.store, (state) => state.snapshot?.stateForAll.currentGuideProductId === product.id);
  const canAct = useStore(session.client.store, (state) => {
    const live = state.connection === 'connected' || state.connection === 'reconnected';
    return live && !(state.snapshot?.stateForAll.ended ?? false);
  });
  return (
    <button
      type="button"
      className="button button--small"
      aria-pressed={inFocus}
      aria-label={t('cockpit.highlightProduct', { name: product.name })}
      disabled={!canAct}
      onClick={() => void act(() => session.highlightProduct(product.id))}
    >
      {inFocus ? t('cockpit.inFocus') : t('cockpit.highlightShort')}
    </button>
  );
}
