import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { rules, validate } from '@/lib/validation';
import { saveAddress, type AddressInput, type CustomerAddress } from '@/lib/shop/addresses';
import { addressErrorMessages } from './address-errors';
import { ADDRESS_LABEL_KEYS, LocationFields, PersonFields, statesOf, useAddressOptions, type AddressFieldName } from './address-fields';
import './address-form.css';

type Values = Record<AddressFieldName, string>;

/** Creates or edits an address (in the address modal and the checkout). */
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
  const { salutations, countries } = useAddressOptions((id) => setValues((current) => (current.countryId ? current : { ...current, countryId: id })));
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [messages, setMessages] = useState<string[]>([]);
  const [failed, setFailed] = useState(false);

  const { required: stateRequired } = statesOf(countries, values.countryId);
  const errors: Partial<Record<AddressFieldName, string | null>> = {
    firstName: validate(values.firstName, [rules.required()]),
    lastName: validate(values.lastName, [rules.required()]),
    street: validate(values.street, [rules.required()]),
    zipcode: validate(values.zipcode, [rules.required()]),
    city: validate(values.city, [rules.required()]),
    countryId: validate(values.countryId, [rules.required()]),
    countryStateId: validate(values.countryStateId, [rules.requiredIf(() => stateRequired)]),
  };
  const onChange = (name: AddressFieldName) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [name]: event.target.value, ...(name === 'countryId' ? { countryStateId: '' } : {}) }));
  const errorOf = (name: AddressFieldName) => (submitted ? (errors[name] ?? null) : null);

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
      const list = addressErrorMessages(error, (field) => (field in ADDRESS_LABEL_KEYS ? t(ADDRESS_LABEL_KEYS[field as AddressFieldName]) : field));
      setMessages(list);
      setFailed(list.length === 0);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="address-form">
      <PersonFields values={values} onChange={onChange} errorOf={errorOf} salutations={salutations} />
      <LocationFields values={values} onChange={onChange} errorOf={errorOf} countries={countries} />
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
