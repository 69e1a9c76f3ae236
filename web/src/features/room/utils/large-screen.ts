import { useEffect, useState } from 'react';

/** From this width on, modals and the stage leave room for the sidebars and the toolbar (spec section 9). */
export const SIDEBAR_OFFSET_MIN_WIDTH = 1024;
/** Resizing is followed only after it has paused this long. */
export const RESIZE_DEBOUNCE_MS = 500;

export function isLargeScreen(width: number): boolean {
  return width >= SIDEBAR_OFFSET_MIN_WIDTH;
}

/** Calls `onChange` with the new large-screen flag once resizing has paused; returns the unsubscribe. */
export function watchLargeScreen(
  target: Pick<Window, 'innerWidth' | 'addEventListener' | 'removeEventListener'>,
  onChange: (large: boolean) => void,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = isLargeScreen(target.innerWidth);
  const onResize = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const large = isLargeScreen(target.innerWidth);
      if (large !== last) {
        last = large;
        onChange(large);
      }
    }, RESIZE_DEBOUNCE_MS);
  };
  target.addEventListener('resize', onResize);
  return () => {
    clearTimeout(timer);
    target.removeEventListener('resize', onResize);
  };
}

/** Whether the window is wide enough for the sidebar offset, following resizes (debounced). */
export function useLargeScreen(): boolean {
  const [large, setLarge] = useState(() => isLargeScreen(window.innerWidth));
  useEffect(() => watchLargeScreen(window, setLarge), []);
  return large;
}
