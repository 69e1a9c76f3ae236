import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { modalStore } from '@/lib/ui/modal';
import type { GuideSession } from '../session/guide-session';
import '../../components/confirm.css';

/** Broadcast mode setup: what it does, and the switch. */
function BroadcastSetup({ session }: { session: GuideSession }) {
  const { t } = useTranslation();
  const active = useStore(session.client.store, (state) => state.snapshot?.stateForAll.broadcastMode ?? false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  async function toggle() {
    setBusy(true);
    setFailed(false);
    try {
      await session.setBroadcast(!active);
      modalStore.getState().close();
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="confirm">
      <p>{t('cockpit.broadcastText')}</p>
      {failed && (
        <p className="alert" role="alert">
          {t('cockpit.actionFailed')}
        </p>
      )}
      <div className="confirm__actions">
        <button type="button" className="button button--primary" aria-pressed={active} disabled={busy} onClick={() => void toggle()}>
          {active ? t('cockpit.broadcastOff') : t('cockpit.broadcastOn')}
        </button>
      </div>
    </div>
  );
}

export function openBroadcastSetup(title: string, session: GuideSession): void {
  modalStore.getState().open(<BroadcastSetup session={session} />, { title, size: 'small' });
}
