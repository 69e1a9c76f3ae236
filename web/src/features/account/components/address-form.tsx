import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, SelectField } from '@/components/form';
import { rules, validate } from '@/lib/validation';
import { saveAddress, type AddressInput, type CustomerAddress } from '../api/addresses';
import { getCountries, getSalutations, type Country, type Salutation } from '../api/settings';
import { addressErrorMessages } from '../utils/address-errors';

type Values = Required<AddressInput>;

const LABEL_KEYS = {
  salutationId: 'account.salutation',
  firstName: 'account.firstName',
  lastName: 'account.lastName',
  street: 'account.street',
  zipcode: 'account.zipcode',
  city: 'account.city',
  countryId: 'account.country',
  countryStateId: 'account.state',
} as const;

/** Creates or edits an address (in the address modal). */
export function AddressForm({ address, onSaved }: { address?: CustomerAddress; onSaved: (saved: CustomerAddress) => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>({
    salutationId: address?.salutationId ?? '',
    firstName: address?.firstName ?? '',
    lastName: address?.lastName ?? '',
    street: address?.street ?? '',
    zipcode: address?.zipcode ?? '',
    city: address?.city ?? '',
    countryId: address?.countryId ?? '',
    countryStateId: address?.countryStateId ?? '',
  });
  const [salutations, setSalutations] = useState<Salutation[]>([]);
  const [countries, setCountries] = useState<Country[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [messages, setMessages] = useState<string[]>([]);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    getSalutations().then(setSalutations).catch(() => undefined);
    getCountries()
      .then((list) => {
        setCountries(list);
        setValues((current) => (current.countryId ? current : { ...current, countryId: (list.find((c) => c.iso === 'DE') ?? list[0])?.id ?? '' }));
      })
      .catch(() => undefined);
  }, []);

  const country = countries.find((entry) => entry.id === values.countryId);
  const states = country?.states ?? [];
  const errors: Partial<Record<keyof Values, string | null>> = {
    firstName: validate(values.firstName, [rules.required()]),
    lastName: validate(values.lastName, [rules.required()]),
    street: validate(values.street, [rules.required()]),
    zipcode: validate(values.zipcode, [rules.required()]),
    city: validate(values.city, [rules.required()]),
    countryId: validate(values.countryId, [rules.required()]),
    countryStateId: validate(values.countryStateId, [rules.requiredIf(() => states.length > 0 && !!country?.forceStateInRegistration)]),
  };
  const set = (name: keyof Values) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [name]: event.target.value, ...(name === 'countryId' ? { countryStateId: '' } : {}) }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.values(errors).some(Boolean)) return;
    setBusy(true);
    setMessages([]);
    setFailed(false);
    const input: AddressInput = { ...values, salutationId: values.salutationId || undefined, countryStateId: values.countryStateId || undefined };
    try {
      onSaved(await saveAddress(input, address?.id));
    } catch (error) {
      const list = addressErrorMessages(error, (field) => (field in LABEL_KEYS ? t(LABEL_KEYS[field as keyof typeof LABEL_KEYS]) : field));
      setMessages(list);
      setFailed(list.length === 0);
      setBusy(false);
    }
  }

  const field = (name: keyof Values, extra: { autoComplete?: string } = {}) => (
    <Field label={t(LABEL_KEYS[name])} name={name} value={values[name]} onChange={set(name)} error={submitted ? (errors[name] ?? null) : null} {...extra} />
  );

  return (
    <form onSubmit={submit} noValidate className="address-form">
      <SelectField
        label={t('account.salutation')}
        name="salutationId"
        value={values.salutationId}
        onChange={set('salutationId')}
        placeholder={t('account.choose')}
        options={salutations.map((entry) => ({ value: entry.id, label: entry.translated?.displayName || entry.displayName || entry.salutationKey }))}
      />
      <div className="form-row">
        {field('firstName', { autoComplete: 'given-name' })}
        {field('lastName', { autoComplete: 'family-name' })}
      </div>
      {field('street', { autoComplete: 'street-address' })}
      <div className="form-row form-row--zip">
        {field('zipcode', { autoComplete: 'postal-code' })}
        {field('city', { autoComplete: 'address-level2' })}
      </div>
      <div className="form-row">
        <SelectField
          label={t('account.country')}
          name="countryId"
          value={values.countryId}
          onChange={set('countryId')}
          error={submitted ? (errors.countryId ?? null) : null}
          placeholder={t('account.choose')}
          options={countries.map((entry) => ({ value: entry.id, label: entry.translated?.name || entry.name }))}
        />
        {states.length > 0 && (
          <SelectField
            label={t('account.state')}
            name="countryStateId"
            value={values.countryStateId}
            onChange={set('countryStateId')}
            error={submitted ? (errors.countryStateId ?? null) : null}
            placeholder={t('account.choose')}
            options={states.map((entry) => ({ value: entry.id, label: entry.translated?.name || entry.name }))}
          />
        )}
      </div>
      {messages.length > 0 && (
        <ul className="alert" role="alert">
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
      {failed && (
        <p className="alert" role="alert">
          {t('errors.generic')}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        {t('account.saveAddress')}
      </button>
    </form>
  );
}
