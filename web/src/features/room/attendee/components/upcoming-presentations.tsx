import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Spinner } from '@/components/spinner';
import { useRuntimeConfig } from '@/config/runtime';
import type { PublicAppointment } from '@/lib/api/shop';
import { useDocumentTitle } from '@/lib/head';
import { useLocalePath } from '@/lib/i18n';
import { formatStart, formatWindow, loadUpcomingAppointments } from '../api/upcoming';
import './upcoming-presentations.css';

/** `/presentations`: the live and upcoming presentations a visitor may join (guided, and self-service with their window), from the shop's home banner. */
export function UpcomingPresentations() {
  const { t, i18n } = useTranslation();
  const config = useRuntimeConfig();
  const localePath = useLocalePath();
  const [appointments, setAppointments] = useState<PublicAppointment[] | null>(null);
  const [failed, setFailed] = useState(false);
  useDocumentTitle(t('presentations.title'));
  // Loaded again when the language changes: the names are per language.
  const language = i18n.language;
  useEffect(() => {
    let cancelled = false;
    loadUpcomingAppointments(config)
      .then((list) => !cancelled && setAppointments(list))
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [config, language]);

  return (
    <div className="container">
      <header className="page-header">
        <h1 className="page-title">{t('presentations.title')}</h1>
        <p className="muted">{t('presentations.lead')}</p>
      </header>
      {failed ? (
        <p className="alert" role="alert">
          {t('errors.generic')}
        </p>
      ) : appointments === null ? (
        <Spinner />
      ) : appointments.length === 0 ? (
        <p>{t('presentations.none')}</p>
      ) : (
        <ul className="presentations" aria-label={t('presentations.title')}>
          {appointments.map((appointment) => {
            const start = formatStart(appointment, i18n.language);
            const selfService = appointment.mode === 'self';
            const open = selfService ? formatWindow(appointment, i18n.language) : null;
            return (
              <li key={appointment.id} className="card presentations__item" aria-label={appointment.name}>
                <h2>{appointment.name}</h2>
                <p className="presentations__badges">
                  {appointment.live && (
                    <span className="badge badge--live" data-testid="live-badge">
                      {t('presentations.live')}
                    </span>
                  )}
                  {selfService && (
                    <span className="badge" data-testid="self-service-badge" title={t('presentations.selfServiceHint')}>
                      {t('presentations.selfService')}
                    </span>
                  )}
                  {appointment.attendeeRestrictionType === 'customer' && <span className="badge">{t('presentations.customersOnly')}</span>}
                </p>
                <p data-testid="presentation-start">
                  {open
                    ? open.from && open.to
                      ? t('presentations.openFromTo', { from: open.from, to: open.to })
                      : open.from
                        ? t('presentations.openFrom', { from: open.from })
                        : open.to
                          ? t('presentations.openUntil', { to: open.to })
                          : t('presentations.openNow')
                    : start
                    ? appointment.live
                      ? t('presentations.startedAt', { start })
                      : t('presentations.startsAt', { start })
                    : appointment.live
                      ? t('presentations.liveNow')
                      : t('presentations.openNow')}
                </p>
                <Link className="button button--primary" to={localePath(`/presentation/${appointment.presentationPath}/prejoin`)} aria-label={t('presentations.joinNamed', { name: appointment.name })}>
                  {t('presentations.join')}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
