import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Field } from '@/components/form';
import { useDocumentTitle } from '@/lib/head';
import { useLocalePath } from '@/lib/i18n';
import { cartStore } from '@/lib/shop/cart';
import { customerStore } from '@/lib/shop/customer';
import { toast } from '@/lib/ui/toasts';
import { rules, validate } from '@/lib/validation';
import { violationsByField } from '@/lib/api/violations';
import { ShopPageLink } from '@/components/shop-page/shop-page-modal';
import { LocationFields, PersonFields, statesOf, useAddressOptions } from './address-fields';
import './auth-card.css';

const FIELDS = ['salutationId', 'firstName', 'lastName', 'email', 'emailConfirmation', 'password', 'passwordConfirmation', 'street', 'zipcode', 'city', 'countryId', 'countryStateId'] as const;
type FieldName = (typeof FIELDS)[number];
type Values = Record<FieldName, string>;

export const PASSWORD_MIN_LENGTH = 8;

/** The client-side checks of the registration form (spec section 5). */
export function registrationErrors(values: Values, t: (key: 'account.emailMismatch' | 'account.passwordMismatch') => string, statesRequired: boolean, guest = false) {
  return {
    salutationId: validate(values.salutationId, [rules.required()]),
    firstName: validate(values.firstName, [rules.required(), rules.maxLength(255)]),
    lastName: validate(values.lastName, [rules.required(), rules.maxLength(255)]),
    email: validate(values.email, [rules.required(), rules.email()]),
    emailConfirmation:
      validate(values.emailConfirmation, [rules.required()]) ?? (values.emailConfirmation.trim().toLowerCase() !== values.email.trim().toLowerCase() ? t('account.emailMismatch') : null),
    password: guest ? null : validate(values.password, [rules.required(), rules.minLength(PASSWORD_MIN_LENGTH)]),
    passwordConfirmation: guest ? null : (validate(values.passwordConfirmation, [rules.required()]) ?? (values.passwordConfirmation !== values.password ? t('account.passwordMismatch') : null)),
    street: validate(values.street, [rules.required()]),
    zipcode: validate(values.zipcode, [rules.required()]),
    city: validate(values.city, [rules.required()]),
    countryId: validate(values.countryId, [rules.required()]),
    countryStateId: validate(values.countryStateId, [rules.requiredIf(() => statesRequired)]),
  } satisfies Record<FieldName, string | null>;
}

const SERVER_FIELDS: Record<string, FieldName> = {
  salutationId: 'salutationId',
  firstName: 'firstName',
  lastName: 'lastName',
  email: 'email',
  password: 'password',
  'billingAddress/street': 'street',
  'billingAddress/zipcode': 'zipcode',
  'billingAddress/city': 'city',
  'billingAddress/countryId': 'countryId',
  'billingAddress/countryStateId': 'countryStateId',
};

/** Registration: salutation, names, email twice, password twice, address with country and state. */
export function RegisterForm({
  embedded = false,
  allowGuest = false,
  titled = true,
  onRegistered,
}: {
  embedded?: boolean;
  allowGuest?: boolean;
  /** Shows its own heading (a page that has its own title leaves it out). */
  titled?: boolean;
  onRegistered?: () => void;
} = {}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [values, setValues] = useState<Values>(() => Object.fromEntries(FIELDS.map((name) => [name, ''])) as Values);
  const [guest, setGuest] = useState(false);
  // The privacy consent (required: the shop stores the data only with it).
  const [privacy, setPrivacy] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [server, setServer] = useState<Partial<Record<FieldName, string>>>({});
  const [failure, setFailure] = useState(false);
  useDocumentTitle(embedded ? null : t('account.registerTitle'));

  const { salutations, countries } = useAddressOptions(
    (id) => setValues((current) => (current.countryId ? current : { ...current, countryId: id })),
    () => setFailure(true),
  );
  const { required: statesRequired } = statesOf(countries, values.countryId);
  const errors = registrationErrors(values, t, statesRequired, guest);
  const errorOf = (name: FieldName) => (submitted ? (errors[name] ?? server[name] ?? null) : (server[name] ?? null));
  const set = (name: FieldName) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [name]: event.target.value, ...(name === 'countryId' ? { countryStateId: '' } : {}) }));
    setServer((current) => ({ ...current, [name]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.values(errors).some(Boolean) || !privacy) return;
    setBusy(true);
    setFailure(false);
    const address = {
      salutationId: values.salutationId,
      firstName: values.firstName.trim(),
      lastName: values.lastName.trim(),
      street: values.street.trim(),
      zipcode: values.zipcode.trim(),
      city: values.city.trim(),
      countryId: values.countryId,
      ...(values.countryStateId ? { countryStateId: values.countryStateId } : {}),
    };
    try {
      await customerStore.getState().register({
        salutationId: values.salutationId,
        firstName: address.firstName,
        lastName: address.lastName,
        email: values.email.trim(),
        ...(guest ? { guest: true } : { password: values.password }),
        acceptedDataProtection: privacy,
        storefrontUrl: window.location.origin + localePath(''),
        billingAddress: address,
      });
      cartStore.getState().refresh().catch(() => undefined);
      toast({ content: guest ? t('account.guestRegistered') : t('account.registered'), variant: 'success' });
      if (onRegistered) onRegistered();
      else void navigate(localePath('/account'), { replace: true });
    } catch (error) {
      const fields = violationsByField(error);
      const mapped: Partial<Record<FieldName, string>> = {};
      for (const [pointer, detail] of Object.entries(fields)) {
        const name = SERVER_FIELDS[pointer];
        if (name) mapped[name] = detail;
      }
      setServer(mapped);
      if (Object.keys(mapped).length === 0) setFailure(true);
      setBusy(false);
    }
  }

  const field = (name: FieldName, label: string, extra: { type?: string; autoComplete?: string } = {}) => (
    <Field label={label} name={name} value={values[name]} onChange={set(name)} error={errorOf(name)} {...extra} />
  );
  const Heading = embedded ? 'h2' : 'h1';

  return (
    <section className={embedded ? 'register-form' : 'card auth-card auth-card--wide'}>
      {titled && <Heading className={embedded ? 'section-title' : undefined}>{t('account.registerTitle')}</Heading>}
      <p className="muted">{t('account.registerLead')}</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <fieldset className="form-section">
          <legend>{t('account.personal')}</legend>
          <PersonFields values={values} onChange={set} errorOf={errorOf} salutations={salutations} />
        </fieldset>
        <fieldset className="form-section">
          <legend>{t('account.access')}</legend>
          {allowGuest && <Field type="checkbox" label={t('account.guestCheckout')} name="guest" checked={guest} onChange={(event) => setGuest(event.target.checked)} />}
          <div className="form-row">
            {field('email', t('account.email'), { type: 'email', autoComplete: 'email' })}
            {field('emailConfirmation', t('account.emailConfirmation'), { type: 'email', autoComplete: 'email' })}
          </div>
          {!guest && (
            <div className="form-row">
              {field('password', t('account.password'), { type: 'password', autoComplete: 'new-password' })}
              {field('passwordConfirmation', t('account.passwordConfirmation'), { type: 'password', autoComplete: 'new-password' })}
            </div>
          )}
        </fieldset>
        <fieldset className="form-section">
          <legend>{t('account.address')}</legend>
          <LocationFields values={values} onChange={set} errorOf={errorOf} countries={countries} />
        </fieldset>
        <Field
          type="checkbox"
          label={t('account.privacy')}
          name="acceptedDataProtection"
          checked={privacy}
          required
          onChange={(event) => setPrivacy(event.target.checked)}
          error={submitted && !privacy ? t('account.privacyRequired') : null}
        />
        <p className="field__hint">
          <ShopPageLink name="privacy">{t('legal.readPrivacy')}</ShopPageLink>
        </p>
        {failure && (
          <p className="alert" role="alert">
            {t('errors.generic')}
          </p>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {guest ? t('account.continueAsGuest') : t('account.register')}
        </button>
      </form>
      {!embedded && (
        <p className="auth-card__switch">
          {t('account.haveAccount')} <Link to={localePath('/account/login')}>{t('account.logIn')}</Link>
        </p>
      )}
    </section>
  );
}
