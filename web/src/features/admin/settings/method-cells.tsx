import { useTranslation } from 'react-i18next';

/** The "Active" cell of a payment or shipping method's row: one click switches it. */
export function ActiveCell({ name, active, busy, working, onToggle }: {
  name: string;
  active: boolean;
  /** Some action of the table runs: every control waits. */
  busy: boolean;
  /** This row's switch is the one running. */
  working: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation();
  return (
    <td>
      <label className="admin-inline-check">
        <input
          type="checkbox"
          checked={active}
          disabled={busy}
          aria-label={t('admin.settings.activeFor', { name })}
          aria-busy={working}
          onChange={onToggle}
        />
        {t('admin.settings.active')}
      </label>
    </td>
  );
}

/** The "Up"/"Down" cell of a method's row in an ordered table of `count` rows. */
export function OrderCell({ name, index, count, busy, onMove }: {
  name: string;
  index: number;
  count: number;
  busy: boolean;
  onMove: (step: -1 | 1) => void;
}) {
  const { t } = useTranslation();
  return (
    <td>
      <button type="button" className="link-button" disabled={busy || index === 0}
        aria-label={t('admin.settings.moveUp', { name })}
        onClick={() => onMove(-1)}
      >
        {t('admin.settings.up')}
      </button>
      <button type="button" className="link-button" disabled={busy || index === count - 1}
        aria-label={t('admin.settings.moveDown', { name })}
        onClick={() => onMove(1)}
      >
        {t('admin.settings.down')}
      </button>
    </td>
  );
}
