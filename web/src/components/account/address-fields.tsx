import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Field, SelectField } from '@/components/form';
import { getCountries, getSalutations, type Country, type Salutation } from '@/lib/shop/settings';

/** The fields every address has, shared by the address form and the registration. */
export type AddressFieldName = 'salutationId' | 'firstName' | 'lastName' | 'street' | 'zipcode' | 'city' | 'countryId' | 'countryStateId';

export const ADDRESS_LABEL_KEYS = {
  salutationId: 'account.salutation',
  firstName: 'account.firstName',
  lastName: 'account.lastName',
  street: 'account.street',
  zipcode: 'account.zipcode',
  city: 'account.city',
  countryId: 'account.country',
  countryStateId: 'account.state',
} as const;

/**
 * Salutations and countries for an address form; once the countries are known,
 * `onDefaultCountry` gets Germany (or the first country) to preselect.
 */
export function useAddressOptions(onDefaultCountry: (id: string) => void, onFailure?: () => void) {
  const [salutations, setSalutations] = useState<Salutation[]>([]);
  const [countries, setCountries] = useState<Country[]>([]);
  useEffect(() => {
    getSalutations()
      .then(setSalutations)
      .catch(() => onFailure?.());
    getCountries()
      .then((list) => {
        setCountries(list);
        const fallback = list.find((country) => country.iso === 'DE') ?? list[0];
        if (fallback) onDefaultCountry(fallback.id);
      })
      .catch(() => onFailure?.());
    // Loaded once per form: the callbacks of a later render must not load them again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return { salutations, countries };
}

/** Whether the country of `countryId` needs a state and which states it has. */
export function statesOf(countries: Country[], countryId: string) {
  const country = countries.find((entry) => entry.id === countryId);
  const states = country?.states ?? [];
  return { states, required: states.length > 0 && !!country?.forceStateInRegistration };
}

interface FieldsProps {
  values: Record<AddressFieldName, string>;
  onChange: (name: AddressFieldName) => (event: { target: { value: string } }) => void;
  errorOf: (name: AddressFieldName) => string | null;
}

/** Salutation, first and last name. */
export function PersonFields({ values, onChange, errorOf, salutations }: FieldsProps & { salutations: Salutation[] }) {
  const { t } = useTranslation();
  return (
    <>
      <SelectField
        label={t('account.salutation')}
        name="salutationId"
        value={values.salutationId}
        onChange={onChange('salutationId')}
        error={errorOf('salutationId')}
        placeholder={t('account.choose')}
        options={salutations.map((entry) => ({ value: entry.id, label: entry.translated?.displayName || entry.displayName || entry.salutationKey }))}
      />
      <div className="form-row">
        <Field label={t('account.firstName')} name="firstName" value={values.firstName} onChange={onChange('firstName')} error={errorOf('firstName')} autoComplete="given-name" />
        <Field label={t('account.lastName')} name="lastName" value={values.lastName} onChange={onChange('lastName')} error={errorOf('lastName')} autoComplete="family-name" />
      </div>
    </>
  );
}

/** Street, postal code, city, country and (when the country has them) state. */
export function LocationFields({ values, onChange, errorOf, countries }: FieldsProps & { countries: Country[] }) {
  const { t } = useTranslation();
  const { states } = statesOf(countries, values.countryId);
  return (
    <>
      <Field label={t('account.street')} name="street" value={values.street} onChange={onChange('street')} error={errorOf('street')} autoComplete="street-address" />
      <div className="form-row form-row--zip">
        <Field label={t('account.zipcode')} name="zipcode" value={values.zipcode} onChange={onChange('zipcode')} error={errorOf('zipcode')} autoComplete="postal-code" />
        <Field label={t('account.city')} name="city" value={values.city} onChange={onChange('city')} error={errorOf('city')} autoComplete="address-level2" />
      </div>
      <div className="form-row">
        <SelectField
          label={t('account.country')}
          name="countryId"
          value={values.countryId}
          onChange={onChange('countryId')}
          error={errorOf('countryId')}
          placeholder={t('account.choose')}
          options={countries.map((entry) => ({ value: entry.id, label: entry.translated?.name || entry.name }))}
        />
        {states.length > 0 && (
          <SelectField
            label={t('account.state')}
            name="countryStateId"
            value={values.countryStateId}
            onChange={onChange('countryStateId')}
            error={errorOf('countryStateId')}
            placeholder={t('account.choose')}
            options={states.map((entry) => ({ value: entry.id, label: entry.translated?.name || entry.name }))}
          />
        )}
      </div>
    </>
  );
}
