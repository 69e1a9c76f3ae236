import type { ReactNode } from 'react';

/** A backoffice page: its heading, actions beside it, the content below. */
export function AdminPage({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="admin-page" aria-labelledby="admin-page-title">
      <header className="admin-page__header">
        <h1 id="admin-page-title" className="admin-page__title" tabIndex={-1}>
          {title}
        </h1>
        {actions && <div className="admin-page__actions">{actions}</div>}
      </header>
      {children}
    </section>
  );
}

/** Messages of a form or a page: errors are alerts (read at once), the rest status. */
export function Notice({ kind = 'error', children }: { kind?: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div className={`admin-notice admin-notice--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}
