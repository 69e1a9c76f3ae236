import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/form';
import { useAdminApi } from '../api/context';
import { errorText } from '../api/errors';
import { AdminPage, Notice } from '../components/admin-page';
import { FormMessages } from '../components/form-messages';
import { useEntityForm } from '../components/use-entity-form';

interface User {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string | null;
  role: 'admin' | 'guide';
  active: boolean;
}

const BLANK = { username: '', firstName: '', lastName: '', email: '', password: '' };

/** Guide users (admins only): list, create, reset a password, deactivate or activate. */
export function UsersPage() {
  const { t } = useTranslation();
  const api = useAdminApi();
  const [users, setUsers] = useState<User[]>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [draft, setDraft] = useState(BLANK);
  const [resetFor, setResetFor] = useState<User | null>(null);
  const [newPassword, setNewPassword] = useState('');
  const form = useEntityForm(['username', 'firstName', 'lastName', 'email', 'password']);
  const reset = useEntityForm(['password']);

  const load = useCallback(
    () =>
      api
        .search<User>('user', { limit: 500, sort: [{ field: 'username' }] })
        .then((answer) => setUsers(answer.data))
        .catch((failure: unknown) => setLoadError(errorText(failure, t('admin.common.failed')))),
    [api, t],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    const body = { ...draft, username: draft.username.trim(), email: draft.email.trim() || null, role: 'guide' };
    if (await form.run(() => api.create('user', body).then(() => undefined), t('admin.users.created'))) {
      setDraft(BLANK);
      await load();
    }
  };

  const toggle = async (user: User) => {
    const done = user.active ? t('admin.users.deactivated', { name: user.username }) : t('admin.users.activated', { name: user.username });
    if (await form.run(() => api.patch('user', user.id, { active: !user.active }), done)) await load();
  };

  const savePassword = async (event: FormEvent) => {
    event.preventDefault();
    if (!resetFor) return;
    if (await reset.run(() => api.patch('user', resetFor.id, { password: newPassword }), t('admin.users.passwordReset'))) {
      setResetFor(null);
      setNewPassword('');
    }
  };

  return (
    <AdminPage title={t('admin.users.title')}>
      {loadError && <Notice>{loadError}</Notice>}
      <FormMessages lines={resetFor ? [] : form.general} />
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">{t('admin.users.username')}</th>
            <th scope="col">{t('admin.products.name')}</th>
            <th scope="col">{t('admin.users.email')}</th>
            <th scope="col">{t('admin.users.role')}</th>
            <th scope="col">{t('admin.users.status')}</th>
            <th scope="col">{t('admin.common.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id}>
              <td>{user.username}</td>
              <td>
                {user.firstName} {user.lastName}
              </td>
              <td>{user.email}</td>
              <td>{user.role === 'admin' ? t('admin.auth.roleAdmin') : t('admin.auth.roleGuide')}</td>
              <td>{user.active ? t('admin.common.active') : t('admin.common.inactive')}</td>
              <td>
                <button type="button" className="link-button" onClick={() => (reset.reset(), setResetFor(user), setNewPassword(''))} aria-label={`${t('admin.users.resetPassword')}: ${user.username}`}>
                  {t('admin.users.resetPassword')}
                </button>
                <button type="button" className="link-button" onClick={() => void toggle(user)} aria-label={`${user.active ? t('admin.users.deactivate') : t('admin.users.activate')}: ${user.username}`}>
                  {user.active ? t('admin.users.deactivate') : t('admin.users.activate')}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {resetFor && (
        <form className="admin-form" onSubmit={(event) => void savePassword(event)} noValidate>
          <fieldset>
            <legend>{t('admin.users.newPassword', { name: resetFor.username })}</legend>
            <FormMessages lines={reset.general} />
            <Field label={t('admin.users.password')} type="password" autoComplete="new-password" value={newPassword} onChange={(e) => setNewPassword(e.target.value)} error={reset.errors.password} />
            <div className="admin-toolbar field--wide">
              <button type="submit" className="button button--primary" disabled={reset.busy}>
                {t('admin.common.save')}
              </button>
              <button type="button" className="button" onClick={() => setResetFor(null)}>
                {t('admin.common.cancel')}
              </button>
            </div>
          </fieldset>
        </form>
      )}
      <form className="admin-form" onSubmit={(event) => void create(event)} noValidate>
        <fieldset>
          <legend>{t('admin.users.new')}</legend>
          <Field label={t('admin.users.username')} autoComplete="off" value={draft.username} onChange={(e) => setDraft({ ...draft, username: e.target.value })} error={form.errors.username} required />
          <Field label={t('admin.users.firstName')} value={draft.firstName} onChange={(e) => setDraft({ ...draft, firstName: e.target.value })} error={form.errors.firstName} required />
          <Field label={t('admin.users.lastName')} value={draft.lastName} onChange={(e) => setDraft({ ...draft, lastName: e.target.value })} error={form.errors.lastName} required />
          <Field label={t('admin.users.email')} type="email" value={draft.email} onChange={(e) => setDraft({ ...draft, email: e.target.value })} error={form.errors.email} />
          <Field label={t('admin.users.password')} type="password" autoComplete="new-password" value={draft.password} onChange={(e) => setDraft({ ...draft, password: e.target.value })} error={form.errors.password} required />
          <div className="admin-toolbar field--wide">
            <button type="submit" className="button button--primary" disabled={form.busy}>
              {t('admin.common.create')}
            </button>
          </div>
        </fieldset>
      </form>
    </AdminPage>
  );
}
