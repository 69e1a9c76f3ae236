import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/form';
import { customerStore, type Customer } from '@/lib/shop/customer';
import { modalStore } from '@/lib/ui/modal';
import { toast } from '@/lib/ui/toasts';
import { rules, validate } from '@/lib/validation';
import { changeEmail, changePassword, changeProfile } from '@/lib/shop/profile';
import { messagesOf } from '@/lib/api/messages';
import { PersonFields, useAddressOptions, type AddressFieldName } from '@/components/account/address-fields';
import { PASSWORD_MIN_LENGTH } from '@/components/account/register-form';
import './profile-forms.css';

/** A modal form: validates, sends, collects the server's messages as a list (spec section 5). */
function ModalForm({ children, errors, submitLabel, send, done }: { children: (submitted: boolean) => ReactNode; errors: (string | null)[]; submitLabel: string; send: () => Promise<void>; done: string }) {
  const { t } = useTranslation();
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [messages, setMessages] = useState<string[]>([]);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (errors.some(Boolean)) return;
    setBusy(true);
    setMessages([]);
    try {
      await send();
      modalStore.getState().close();
      toast({ content: done, variant: 'success' });
      await customerStore.getState().refresh().catch(() => undefined);
    } catch (error) {
      setMessages(messagesOf(error, t('errors.generic')));
      setBusy(false);
    }
  }
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="profile-form">
      {children(submitted)}
      {messages.length > 0 && (
        <ul className="alert" role="alert">
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}

function ProfileForm({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<AddressFieldName, string>>({
    salutationId: customer.salutationId ?? '',
    firstName: customer.firstName ?? '',
    lastName: customer.lastName ?? '',
    street: '',
    zipcode: '',
    city: '',
    countryId: '',
    countryStateId: '',
  });
  const { salutations } = useAddressOptions(() => undefined);
  const errors = {
    firstName: validate(values.firstName, [rules.required(), rules.maxLength(255)]),
    lastName: validate(values.lastName, [rules.required(), rules.maxLength(255)]),
  };
  const onChange = (name: AddressFieldName) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [name]: event.target.value }));
  return (
    <ModalForm
      errors={Object.values(errors)}
      submitLabel={t('account.saveProfile')}
      done={t('account.profileSaved')}
      send={() => changeProfile({ ...(values.salutationId ? { salutationId: values.salutationId } : {}), firstName: values.firstName.trim(), lastName: values.lastName.trim() })}
    >
      {(submitted) => <PersonFields values={values} onChange={onChange} errorOf={(name) => (submitted ? ((errors as Record<string, string | null>)[name] ?? null) : null)} salutations={salutations} />}
    </ModalForm>
  );
}

function EmailForm() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [password, setPassword] = useState('');
  const errors = {
    email: validate(email, [rules.required(), rules.email()]),
    confirmation: validate(confirmation, [rules.required()]) ?? (confirmation.trim().toLowerCase() !== email.trim().toLowerCase() ? t('account.emailMismatch') : null),
    password: validate(password, [rules.required()]),
  };
  return (
    <ModalForm errors={Object.values(errors)} submitLabel={t('account.saveEmail')} done={t('account.emailChanged')} send={() => changeEmail({ email: email.trim(), emailConfirmation: confirmation.trim(), password })}>
      {(submitted) => (
        <>
          <Field label={t('account.newEmail')} name="email" type="email" autoComplete="email" value={email} onChange={(event) => setEmail(event.target.value)} error={submitted ? errors.email : null} />
          <Field label={t('account.newEmailConfirmation')} name="emailConfirmation" type="email" autoComplete="email" value={confirmation} onChange={(event) => setConfirmation(event.target.value)} error={submitted ? errors.confirmation : null} />
          <Field label={t('account.confirmWithPassword')} name="password" type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} error={submitted ? errors.password : null} />
        </>
      )}
    </ModalForm>
  );
}

function PasswordForm() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const errors = {
    current: validate(current, [rules.required()]),
    next: validate(next, [rules.required(), rules.minLength(PASSWORD_MIN_LENGTH)]),
    confirmation: validate(confirmation, [rules.required()]) ?? (confirmation !== next ? t('account.passwordMismatch') : null),
  };
  return (
    <ModalForm errors={Object.values(errors)} submitLabel={t('account.savePassword')} done={t('account.passwordChanged')} send={() => changePassword({ password: current, newPassword: next, newPasswordConfirm: confirmation })}>
      {(submitted) => (
        <>
          <Field label={t('account.currentPassword')} name="password" type="password" autoComplete="current-password" value={current} onChange={(event) => setCurrent(event.target.value)} error={submitted ? errors.current : null} />
          <Field label={t('account.newPassword')} name="newPassword" type="password" autoComplete="new-password" value={next} onChange={(event) => setNext(event.target.value)} error={submitted ? errors.next : null} />
          <Field label={t('account.newPasswordConfirmation')} name="newPasswordConfirm" type="password" autoComplete="new-password" value={confirmation} onChange={(event) => setConfirmation(event.target.value)} error={submitted ? errors.confirmation : null} />
        </>
      )}
    </ModalForm>
  );
}

/** The profile card: name and email, and the buttons that change profile, email and password. */
export function ProfileCard({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const name = [customer.firstName, customer.lastName].filter(Boolean).join(' ');
  const open = (content: ReactNode, title: string) => modalStore.getState().open(content, { title, size: 'small' });
  return (
    <section className="account-card" aria-labelledby="account-profile">
      <h2 id="account-profile">{t('account.profile')}</h2>
      <p>{name}</p>
      <p className="muted" data-testid="account-email">
        {customer.email}
      </p>
      <div className="account-card__actions">
        <button type="button" className="button button--small" onClick={() => open(<ProfileForm customer={customer} />, t('account.changeProfile'))}>
          {t('account.changeProfile')}
        </button>
        <button type="button" className="button button--small" onClick={() => open(<EmailForm />, t('account.changeEmail'))}>
          {t('account.changeEmail')}
        </button>
        <button type="button" className="button button--small" onClick={() => open(<PasswordForm />, t('account.changePassword'))}>
          {t('account.changePassword')}
        </button>
      </div>
    </section>
  );
}
