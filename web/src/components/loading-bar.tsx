import { useEffect } from 'react';
import { useNavigation } from 'react-router';
import { useStore } from 'zustand';
import { LOADING_BAR_HEIGHT_PX, loadingBarStore } from '@/lib/ui/loading-bar';
import './loading-bar.css';

/** The thin bar at the top while a navigation (or other tracked work) runs. */
export function LoadingBar() {
  const { progress, visible } = useStore(loadingBarStore);
  const navigating = useNavigation().state !== 'idle';

  useEffect(() => {
    if (!navigating) return;
    loadingBarStore.getState().start();
    return () => loadingBarStore.getState().finish();
  }, [navigating]);

  return (
    <div
      className="loading-bar"
      aria-hidden="true"
      data-visible={visible}
      style={{ height: LOADING_BAR_HEIGHT_PX, transform: `scaleX(${progress / 100})` }}
    />
  );
}
