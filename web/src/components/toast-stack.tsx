import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { notificationStore } from '@/lib/ui/notifications';
import { toastStore } from '@/lib/ui/toasts';
import './toast-stack.css';

/** Toasts and notifications, top right. Hovering a toast pauses it; leaving restarts it. */
export function ToastStack() {
  const { t } = useTranslation();
  const toasts = useStore(toastStore, (state) => state.toasts);
  const notifications = useStore(notificationStore, (state) => state.notifications);
  const { hide, pause, resume } = toastStore.getState();

  return (
    <section className="toasts" aria-label={t('shop.notificationsRegion')} aria-live="polite">
      {notifications.map((entry) => (
        <div key={`n${entry.id}`} className="toast" data-variant={entry.type} data-show="true">
          <p className="toast__content">{entry.message}</p>
          <button
            type="button"
            className="toast__close"
            aria-label={t('shop.close')}
            onClick={() => notificationStore.getState().remove(entry.id)}
          >
            ×
          </button>
        </div>
      ))}
      {toasts.map((entry) => (
        <div
          key={entry.id}
          className="toast"
          data-variant={entry.variant}
          data-show={entry.show}
          onMouseEnter={() => pause(entry.id)}
          onMouseLeave={() => resume(entry.id)}
          onFocus={() => pause(entry.id)}
          onBlur={() => resume(entry.id)}
        >
          <p className="toast__content">{entry.content}</p>
          {entry.actionText && entry.actionFn && (
            <button
              type="button"
              className="toast__action"
              onClick={() => {
                entry.actionFn?.();
                hide(entry.id);
              }}
            >
              {entry.actionText}
            </button>
          )}
          <button type="button" className="toast__close" aria-label={t('shop.close')} onClick={() => hide(entry.id)}>
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
