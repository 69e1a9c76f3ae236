import { useState } from 'react';
import { modalStore } from '@/lib/ui/modal';
import './confirm.css';

interface ConfirmOptions {
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel: string;
  /** Runs on confirm; the dialog stays open (busy) until it settles, and closes on success. */
  onConfirm: () => Promise<unknown>;
  failedText: string;
  danger?: boolean;
}

function ConfirmBody({ text, confirmLabel, cancelLabel, onConfirm, failedText, danger }: Omit<ConfirmOptions, 'title'>) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  async function confirm() {
    setBusy(true);
    setFailed(false);
    try {
      await onConfirm();
      modalStore.getState().close();
    } catch {
      setFailed(true);
      setBusy(false);
    }
  }
  return (
    <div className="confirm">
      <p>{text}</p>
      {failed && (
        <p className="alert" role="alert">
          {failedText}
        </p>
      )}
      <div className="confirm__actions">
        <button type="button" className="button" onClick={() => modalStore.getState().close()}>
          {cancelLabel}
        </button>
        <button
          type="button"
          className={`button ${danger ? 'button--danger' : 'button--primary'}`}
          disabled={busy}
          onClick={() => void confirm()}
        >
          {confirmLabel}
        </button>
      </div>
    </div>
  );
}

/** A confirmation modal (start, end, mute all …) on the page's modal host. */
export function openConfirm({ title, ...body }: ConfirmOptions): void {
  modalStore.getState().open(<ConfirmBody {...body} />, { title, size: 'small' });
}
