import { useEffect, useEffectEvent, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { modalStore } from '@/lib/ui/modal';
import './room-sidebar.css';

/**
 * A room sidebar: heading, close button and content. Focus moves into it when it opens
 * and back when it closes; Escape closes it (unless a modal is open above it). On large
 * screens it is a column of the room, on phones a full-height sheet (CSS).
 */
export function RoomSidebar({
  title,
  onClose,
  children,
  footer,
  testId,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const ref = useRef<HTMLElement>(null);
  // Escape calls the latest onClose without re-running the focus effect.
  const close = useEffectEvent(() => onClose());

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    ref.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || modalStore.getState().modal) return;
      close();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  return (
    <section ref={ref} className="room-sidebar" aria-labelledby={titleId} tabIndex={-1} data-testid={testId}>
      <header className="room-sidebar__header">
        <h2 id={titleId} className="room-sidebar__title">
          {title}
        </h2>
        <button type="button" className="icon-button" aria-label={t('room.closeSidebar', { name: title })} onClick={onClose}>
          ×
        </button>
      </header>
      <div className="room-sidebar__body">{children}</div>
      {footer && <footer className="room-sidebar__footer">{footer}</footer>}
    </section>
  );
}
