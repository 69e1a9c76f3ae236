import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Field, SelectField } from '@/components/form';
import { useDocumentTitle } from '@/lib/head';
import { useLocalePath } from '@/lib/i18n';
import { cartStore } from '@/lib/shop/cart';
import { customerStore } from '@/lib/shop/customer';
import { toast } from '@/lib/ui/toasts';
import { rules, validate } from '@/lib/validation';
import { getCountries, getSalutations, type Country, type Salutation } from '../api/settings';
import { violationsByField } from '../utils/violations';

const FIELDS = ['salutationId', 'firstName', 'lastName', 'email', 'emailConfirmation', 'password', 'passwordConfirmation', 'street', 'zipcode', 'city', 'countryId', 'countryStateId'] as const;
type FieldName = (typeof FIELDS)[number];
type Values = Record<FieldName, string>;

export const PASSWORD_MIN_LENGTH = 8;

/** The client-side checks of the registration form (spec section 5). */
export function registrationErrors(values: Values, t: (key: 'account.emailMismatch' | 'account.passwordMismatch') => string, statesRequired: boolean) {
  return {
    salutationId: validate(values.salutationId, [rules.required()]),
    firstName: validate(values.firstName, [rules.required(), rules.maxLength(255)]),
    lastName: validate(values.lastName, [rules.required(), rules.maxLength(255)]),
    email: validate(values.email, [rules.required(), rules.email()]),
    emailConfirmation:
      validate(values.emailConfirmation, [rules.required()]) ?? (values.emailConfirmation.trim().toLowerCase() !== values.email.trim().toLowerCase() ? t('account.emailMismatch') : null),
    password: validate(values.password, [rules.required(), rules.minLength(PASSWORD_MIN_LENGTH)]),
    passwordConfirmation: validate(values.passwordConfirmation, [rules.required()]) ?? (values.passwordConfirmation !== values.password ? t('account.passwordMismatch') : null),
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
export function RegisterForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [values, setValues] = useState<Values>(() => Object.fromEntries(FIELDS.map((name) => [name, ''])) as Values);
  const [salutations, setSalutations] = useState<Salutation[]>([]);
  const [countries, setCountries] = useState<Country[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [server, setServer] = useState<Partial<Record<FieldName, string>>>({});
  const [failure, setFailure] = useState(false);
  useDocumentTitle(t('account.registerTitle'));

  useEffect(() => {
    getSalutations().then(setSalutations).catch(() => setFailure(true));
    getCountries()
      .then((list) => {
        setCountries(list);
        const germany = list.find((country) => country.iso === 'DE') ?? list[0];
        if (germany) setValues((current) => (current.countryId ? current : { ...current, countryId: germany.id }));
      })
      .catch(() => setFailure(true));
  }, []);

  const country = countries.find((entry) => entry.id === values.countryId);
  const states = country?.states ?? [];
  const statesRequired = states.length > 0 && !!country?.forceStateInRegistration;
  const errors = registrationErrors(values, t, statesRequired);
  const errorOf = (name: FieldName) => (submitted ? (errors[name] ?? server[name] ?? null) : (server[name] ?? null));
  const set = (name: FieldName) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [name]: event.target.value, ...(name === 'countryId' ? { countryStateId: '' } : {}) }));
    setServer((current) => ({ ...current, [name]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.values(errors).some(Boolean)) return;
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
        password: values.password,
        acceptedDataProtection: true,
        storefrontUrl: window.location.origin,
        billingAddress: address,
      });
      cartStore.getState().refresh().catch(() => undefined);
      toast({ content: t('account.registered'), variant: 'success' });
      navigate(localePath('/account'), { replace: true });
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

  return (
    <section className="card auth-card auth-card--wide">
      <h1>{t('account.registerTitle')}</h1>
      <p className="muted">{t('account.registerLead')}</p>
      <form onSubmit={submit} noValidate>
        <fieldset className="form-section">
          <legend>{t('account.personal')}</legend>
          <SelectField
            label={t('account.salutation')}
            name="salutationId"
            value={values.salutationId}
            onChange={set('salutationId')}
            error={errorOf('salutationId')}
            placeholder={t('account.choose')}
            options={salutations.map((entry) => ({ value: entry.id, label: entry.translated?.displayName || entry.displayName || entry.salutationKey }))}
          />
          <div className="form-row">
            {field('firstName', t('account.firstName'), { autoComplete: 'given-name' })}
            {field('lastName', t('account.lastName'), { autoComplete: 'family-name' })}
          </div>
        </fieldset>
        <fieldset className="form-section">
          <legend>{t('account.access')}</legend>
          <div className="form-row">
            {field('email', t('account.email'), { type: 'email', autoComplete: 'email' })}
            {field('emailConfirmation', t('account.emailConfirmation'), { type: 'email', autoComplete: 'email' })}
          </div>
          <div className="form-row">
            {field('password', t('account.password'), { type: 'password', autoComplete: 'new-password' })}
            {field('passwordConfirmation', t('account.passwordConfirmation'), { type: 'password', autoComplete: 'new-password' })}
          </div>
        </fieldset>
        <fieldset className="form-section">
          <legend>{t('account.address')}</legend>
          {field('street', t('account.street'), { autoComplete: 'street-address' })}
          <div className="form-row form-row--zip">
            {field('zipcode', t('account.zipcode'), { autoComplete: 'postal-code' })}
            {field('city', t('account.city'), { autoComplete: 'address-level2' })}
          </div>
          <div className="form-row">
            <SelectField
              label={t('account.country')}
              name="countryId"
              value={values.countryId}
              onChange={set('countryId')}
              error={errorOf('countryId')}
              placeholder={t('account.choose')}
              options={countries.map((entry) => ({ value: entry.id, label: entry.translated?.name || entry.name }))}
            />
            {states.length > 0 && (
              <SelectField
                label={t('account.state')}
                name="countryStateId"
                value={values.countryStateId}
                onChange={set('countryStateId')}
                error={errorOf('countryStateId')}
                placeholder={t('account.choose')}
                options={states.map((entry) => ({ value: entry.id, label: entry.translated?.name || entry.name }))}
              />
            )}
          </div>
        </fieldset>
        {failure && (
          <p className="alert" role="alert">
            {t('errors.generic')}
          </p>
        )}
        <button type="submit" className="button button--primary" disabled={busy}>
          {t('account.register')}
        </button>
      </form>
      <p className="auth-card__switch">
        {t('account.haveAccount')} <Link to={localePath('/account/login')}>{t('account.logIn')}</Link>
      </p>
    </section>
  );
}
