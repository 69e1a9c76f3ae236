import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useStore } from 'zustand';
import { modalStore } from '@/lib/ui/modal';
import './modal-host.css';

/**
 * The one modal of the page. Escape and a click on the backdrop close it unless the
 * backdrop is static; focus moves into the dialog and back when it closes.
 */
export function ModalHost() {
  const { t } = useTranslation();
  const modal = useStore(modalStore, (state) => state.modal);
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const { pathname } = useLocation();

  // A navigation closes the modal (a link inside it was followed).
  useEffect(() => {
    modalStore.getState().close();
  }, [pathname]);

  useEffect(() => {
    if (!modal) return;
    const previous = document.activeElement as HTMLElement | null;
    dialogRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') modalStore.getState().dismiss();
      if (event.key === 'Tab' && dialogRef.current) {
        const focusable = dialogRef.current.querySelectorAll<HTMLElement>(
          'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])',
        );
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (!first || !last) return;
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    document.body.classList.add('has-modal');
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.classList.remove('has-modal');
      previous?.focus?.();
    };
  }, [modal]);

  if (!modal) return null;
  return (
    <div
      className="modal-backdrop"
      data-testid="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) modalStore.getState().dismiss();
      }}
    >
      <div
        ref={dialogRef}
        className={`modal modal--${modal.size ?? 'medium'}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <header className="modal__header">
          <h2 id={titleId} className="modal__title">
            {modal.title}
          </h2>
          <button
            type="button"
            className="icon-button"
            aria-label={t('shop.close')}
            onClick={() => modalStore.getState().close()}
          >
            ×
          </button>
        </header>
        <div className="modal__body">{modal.content}</div>
      </div>
    </div>
  );
}
