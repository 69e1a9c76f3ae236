import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useRuntimeConfig } from '@/config/runtime';
import { errorStatus } from '@/lib/api/shop';
import { useLocalePath } from '@/lib/i18n';
import { loadAdminSession, saveAdminSession } from '../../guide/stores/admin-session';
import { loadSessionReport, type SessionReport as Report } from '../api/report';
import { formatDateTime, formatNumber, formatTime } from '@/lib/format';
import { formatCell, minutesToSeconds, reportCsv, reportTables, timesToSeconds, type Cell, type TableId } from '../utils/report-tables';
import { timeFormats } from '../utils/time-axis';
import { addReportTexts } from '../report-texts';
import './session-report.css';

addReportTexts();

// uPlot comes with the chart only.
const TimeChart = lazy(() => import('./time-chart'));

type Failure = 'report.notFound' | 'report.loadFailed';

/** `/guide/report/{appointmentId}`: what a session did and sold, with charts and a CSV download. */
export function SessionReport() {
  const { appointmentId = '' } = useParams();
  const config = useRuntimeConfig();
  const { t, i18n } = useTranslation();
  const localePath = useLocalePath();
  const [report, setReport] = useState<Report | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const session = loadAdminSession();
    if (!session) return;
    let current = true;
    loadSessionReport(config, session, appointmentId, saveAdminSession).then(
      (loaded) => current && (setReport(loaded), setFailure(null)),
      (error: unknown) => current && setFailure(errorStatus(error) === 404 ? 'report.notFound' : 'report.loadFailed'),
    );
    return () => {
      current = false;
    };
  }, [config, appointmentId, reloads]);

  const locale = i18n.language;
  const format = useMemo(
    () => ({
      number: (value: number) => formatNumber(value, locale),
      clock: (seconds: number) => formatTime(seconds * 1000, { locale }),
      cell: (cell: Cell): string => formatCell(cell, locale),
      dateTime: (at: string | null) => (at ? formatDateTime(at, { locale }) : '—'),
    }),
    [locale],
  );
  /** What every chart is given: values and times in the page's locale, the time named in its language. */
  const chartFormat = useMemo(
    () => ({ formatValue: format.number, formatTime: format.clock, timeFormats: timeFormats(locale), timeLabel: t('report.columns.at') }),
    [format, locale, t],
  );

  const words = {
    yes: t('report.yes'),
    no: t('report.no'),
    guest: t('report.guest'),
    reaction: (kind: 'heart' | 'clap' | 'laugh' | 'wow' | 'fire') => t(`report.reactionKinds.${kind}`),
  };
  const tables = report ? reportTables(report, words) : [];
  const title = (id: TableId) => t(`report.tables.${id}`);
  const label = (key: string) => t(`report.columns.${key}` as 'report.columns.metric');

  // Viewers over time from the hub's attendance points; without the hub, joins per minute.
  const viewersChart = useMemo(
    () =>
      report?.live && report.live.attendance.length > 0
        ? {
            x: timesToSeconds(report.live.attendance.map((p) => p.at)),
            series: [
              { label: t('report.columns.joinedNow'), values: report.live.attendance.map((p) => p.joined), color: '#2f6f9f' },
              { label: t('report.columns.connected'), values: report.live.attendance.map((p) => p.connected), color: '#3c8d4f' },
            ],
          }
        : null,
    [report, t],
  );
  const reactionsChart = useMemo(
    () =>
      report?.live && report.live.reactions.perMinute.length > 0
        ? {
            x: minutesToSeconds(report.live.reactions.perMinute.map((m) => m.minute)),
            series: [{ label: t('report.columns.reactions'), values: report.live.reactions.perMinute.map((m) => m.reactions), color: '#c2512c' }],
          }
        : null,
    [report, t],
  );
  const cartValueChart = useMemo(
    () =>
      report?.live && report.live.cartValue.length > 0
        ? {
            x: timesToSeconds(report.live.cartValue.map((s) => s.at)),
            series: [{ label: t('report.columns.cartValue'), values: report.live.cartValue.map((s) => s.value), color: '#7a5cb4' }],
          }
        : null,
    [report, t],
  );
  const attendanceChart = useMemo(
    () =>
      !viewersChart && report && report.attendance.length > 0
        ? {
            x: minutesToSeconds(report.attendance.map((m) => m.minute)),
            series: [{ label: t('report.columns.joinedTotal'), values: report.attendance.map((m) => m.joinedTotal), color: '#2f6f9f' }],
          }
        : null,
    [report, t, viewersChart],
  );
  const chatChart = useMemo(
    () =>
      report?.live && report.live.chatPerMinute.length > 0
        ? {
            x: minutesToSeconds(report.live.chatPerMinute.map((m) => m.minute)),
            series: [{ label: t('report.columns.messages'), values: report.live.chatPerMinute.map((m) => m.messages), color: '#b4457a' }],
          }
        : null,
    [report, t],
  );

  function download() {
    if (!report) return;
    const csv = reportCsv(tables, title, label);
    const url = URL.createObjectURL(new Blob([`\uFEFF${csv}`], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `session-report-${report.appointment.id}.csv`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  if (failure) {
    return (
      <section className="session-report">
        <p className="alert" role="alert">
          {t(failure)}
        </p>
        {failure === 'report.loadFailed' && (
          <button type="button" className="button" onClick={() => setReloads((n) => n + 1)}>
            {t('report.retry')}
          </button>
        )}
      </section>
    );
  }
  if (!report) return <p className="session-report" aria-busy="true">{t('report.loading')}</p>;

  return (
    <section className="session-report" aria-labelledby="session-report-title">
      <header className="session-report__header">
        <h1 id="session-report-title">{t('report.title', { name: report.appointment.name })}</h1>
        <p className="session-report__window">
          {t('report.window', { from: format.dateTime(report.window.from), to: report.window.to ? format.dateTime(report.window.to) : t('report.running') })}
        </p>
        <p className="session-report__note">{t('report.ordersWindow', { hours: report.window.afterSessionHours })}</p>
        <div className="session-report__actions">
          <button type="button" className="button button--primary" onClick={download}>
            {t('report.downloadCsv')}
          </button>
          <button type="button" className="button" onClick={() => setReloads((n) => n + 1)}>
            {t('report.refresh')}
          </button>
          <Link className="button" to={localePath(`/guide/${appointmentId}`)}>
            {t('report.backToCockpit')}
          </Link>
        </div>
      </header>
      <div className="session-report__charts">
        {viewersChart && (
          <figure>
            <figcaption>{t('report.charts.viewers')}</figcaption>
            <Suspense fallback={<div className="time-chart" />}>
              <TimeChart x={viewersChart.x} series={viewersChart.series} {...chartFormat} stepped />
            </Suspense>
          </figure>
        )}
        {reactionsChart && (
          <figure>
            <figcaption>{t('report.charts.reactions')}</figcaption>
            <Suspense fallback={<div className="time-chart" />}>
              <TimeChart x={reactionsChart.x} series={reactionsChart.series} {...chartFormat} />
            </Suspense>
          </figure>
        )}
        {cartValueChart && (
          <figure>
            <figcaption>{t('report.charts.cartValue')}</figcaption>
            <Suspense fallback={<div className="time-chart" />}>
              <TimeChart x={cartValueChart.x} series={cartValueChart.series} {...chartFormat} stepped />
            </Suspense>
          </figure>
        )}
        {attendanceChart && (
          <figure>
            <figcaption>{t('report.charts.attendance')}</figcaption>
            <Suspense fallback={<div className="time-chart" />}>
              <TimeChart x={attendanceChart.x} series={attendanceChart.series} {...chartFormat} />
            </Suspense>
          </figure>
        )}
        {chatChart && (
          <figure>
            <figcaption>{t('report.charts.chat')}</figcaption>
            <Suspense fallback={<div className="time-chart" />}>
              <TimeChart x={chatChart.x} series={chatChart.series} {...chartFormat} />
            </Suspense>
          </figure>
        )}
      </div>
      {tables.map((table) => (
        <div key={table.id} className="session-report__table">
          <h2 id={`report-${table.id}`}>{title(table.id)}</h2>
          {table.rows.length === 0 ? (
            <p>{t('report.empty')}</p>
          ) : (
            <table aria-labelledby={`report-${table.id}`} data-table={table.id}>
              <thead>
                <tr>
                  {table.columns.map((column) => (
                    <th key={column} scope="col">
                      {label(column)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, c) => (
                      <td key={c} className={cell.kind === 'text' || cell.kind === 'time' ? undefined : 'session-report__number'}>
                        {table.id === 'summary' && c === 0 ? label(String(cell.value)) : format.cell(cell)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      ))}
    </section>
  );
}
