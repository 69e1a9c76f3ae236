import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import type { RealtimeClient } from '@/features/room/realtime/client';
import { modalStore } from '@/lib/ui/modal';

/** Broadcast mode setup: what it does, and the switch. */
function BroadcastSetup({ client }: { client: RealtimeClient }) {
  const { t } = useTranslation();
  const active = useStore(client.store, (state) => state.snapshot?.stateForAll.broadcastMode ?? false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  async function toggle() {
    setBusy(true);
    setFailed(false);
    try {
      await client.sendInteraction({ name: 'broadcastMode.toggled', payload: { active: !active } });
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
        <button type="button" className="button button--primary" aria-pressed={active} disabled={busy} onClick={toggle}>
          {active ? t('cockpit.broadcastOff') : t('cockpit.broadcastOn')}
        </button>
      </div>
    </div>
  );
}

export function openBroadcastSetup(title: string, client: RealtimeClient): void {
  modalStore.getState().open(<BroadcastSetup client={client} />, { title, size: 'small' });
}
