import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useStore } from 'zustand';
import { ConnectionStatus } from '@/components/connection-status';
import { useLocalePath } from '@/lib/i18n';
import { openConfirm } from '../../components/confirm';
import type { GuideSession } from '../session/guide-session';
import { VIEW_MODE_OF, viewControlOf, type ViewControl } from '../stores/cockpit';
import './cockpit-header.css';

const VIEW_CONTROLS: ViewControl[] = ['conference', 'speech', 'content'];

/** The cockpit's header: the appointment, its phase and badges, the view controls, the lifecycle and the connection. */
export function CockpitHeader({
  session,
  appointmentId,
  appointmentName,
  act,
}: {
  session: GuideSession;
  /** The appointment's id (the page's path may be its presentation path). */
  appointmentId: string;
  appointmentName: string;
  /** Runs a hub request; a failure shows the cockpit's alert. */
  act: (request: () => Promise<unknown>) => Promise<void>;
}) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const connection = useStore(session.client.store, (state) => state.connection);
  const all = useStore(session.client.store, (state) => state.snapshot?.stateForAll);
  const live = connection === 'connected' || connection === 'reconnected';
  const ended = all?.ended ?? false;
  const started = all?.started ?? false;
  const locked = all?.locked ?? false;
  const mutedAll = all?.mutedAll ?? false;
  const viewControl = viewControlOf(all?.viewMode ?? 'presentation');
  const canAct = live && !ended;

  const confirmStart = () =>
    openConfirm({
      title: t('cockpit.startTitle'),
      text: t('cockpit.startText'),
      confirmLabel: t('cockpit.startConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('cockpit.actionFailed'),
      onConfirm: () => session.startAppointment(),
    });
  const confirmEnd = () =>
    openConfirm({
      title: t('cockpit.endTitle'),
      text: t('cockpit.endText'),
      confirmLabel: t('cockpit.endConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('cockpit.actionFailed'),
      danger: true,
      onConfirm: () => session.endAppointment(),
    });
  const confirmLock = () =>
    openConfirm({
      title: t('cockpit.lockTitle'),
      text: t('cockpit.lockText'),
      confirmLabel: t('cockpit.lockConfirm'),
      cancelLabel: t('cockpit.cancel'),
      failedText: t('cockpit.actionFailed'),
      onConfirm: () => session.setLocked(true),
    });

  const phase = ended ? 'ended' : started ? 'running' : 'notStarted';
  return (
    <header className="stage__header cockpit__header">
      <h1 title={appointmentName}>{appointmentName}</h1>
      <p className="phase" data-phase={phase} data-testid="presentation-phase">
        {t(`cockpit.${phase}`)}
      </p>
      {locked && <p className="badge">{t('cockpit.lockedBadge')}</p>}
      {mutedAll && <p className="badge">{t('cockpit.mutedBadge')}</p>}
      {/* The view controls sit with the header: the toolbar keeps the menu groups of spec section 2. */}
      <div className="segmented cockpit__views" role="radiogroup" aria-label={t('cockpit.viewControls')}>
        {VIEW_CONTROLS.map((control) => (
          <button
            key={control}
            type="button"
            role="radio"
            aria-checked={viewControl === control}
            className="segmented__option"
            disabled={!canAct}
            onClick={() => void act(() => session.setViewMode(VIEW_MODE_OF[control]))}
          >
            {t(`cockpit.${control}`)}
          </button>
        ))}
      </div>
      <div className="cockpit__lifecycle">
        {!started && !ended && (
          <button type="button" className="button button--primary" disabled={!live} onClick={confirmStart}>
            {t('cockpit.start')}
          </button>
        )}
        <button
          type="button"
          className="button"
          aria-pressed={locked}
          disabled={!canAct}
          onClick={() => (locked ? void act(() => session.setLocked(false)) : confirmLock())}
        >
          {locked ? t('cockpit.unlock') : t('cockpit.lock')}
        </button>
        {!ended && (
          <button type="button" className="button button--danger" disabled={!live} onClick={confirmEnd}>
            {t('cockpit.end')}
          </button>
        )}
        {(started || ended) && (
          <Link className="button" to={localePath(`/guide/report/${appointmentId}`)}>
            {t('cockpit.sessionReport')}
          </Link>
        )}
      </div>
      <ConnectionStatus state={connection} />
    </header>
  );
}
