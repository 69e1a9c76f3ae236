import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AdminPage, Notice } from './admin-page';

/** What an editor says after saving or failing. */
export interface EditorMessage {
  kind: 'error' | 'success';
  text: string;
}

/** An entity's editor page (appointment, presentation): its title, a Back link to `backTo`, the last message, the content. */
export function EditorPage({ title, backTo, message, children }: { title: string; backTo: string; message: EditorMessage | null; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <AdminPage
      title={title}
      actions={
        <Link className="button" to={backTo}>
          {t('admin.common.back')}
        </Link>
      }
    >
      {message && <Notice kind={message.kind}>{message.text}</Notice>}
      {children}
    </AdminPage>
  );
}

/** The end of an editor's form, for admins only: Create (new) or Save, and Delete (stored). */
export function EditorActions({ canEdit, stored, busy, onDelete }: { canEdit: boolean; stored: boolean; busy: boolean; onDelete: () => void }) {
  const { t } = useTranslation();
  if (!canEdit) return null;
  return (
    <div className="admin-toolbar">
      <button type="submit" className="button button--primary" disabled={busy}>
        {stored ? t('admin.common.save') : t('admin.common.create')}
      </button>
      {stored && (
        <button type="button" className="button" onClick={onDelete}>
          {t('admin.common.delete')}
        </button>
      )}
    </div>
  );
}
