import { useTranslation } from 'react-i18next';
import { Field } from '@/components/form';
import { ShopPageLink } from '@/components/shop-page/shop-page-modal';

interface JoinNameFieldsProps {
  name: string;
  onName: (name: string) => void;
  consent: boolean;
  onConsent: (consent: boolean) => void;
  /** Show the fields' errors (after a first attempt to join). */
  submitted: boolean;
}

/** The name attendees are shown by and the consent to join, as pre-join and the invitation ask for them. */
export function JoinNameFields({ name, onName, consent, onConsent, submitted }: JoinNameFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <Field
        label={t('presentation.name')}
        name="name"
        autoComplete="name"
        value={name}
        // From the moment the field has the focus it holds what is shown: a customer's name
        // that arrives later (read from the shop) no longer replaces it under the cursor,
        // where it would join what is being typed ("Dana DemoBob Customer").
        onFocus={() => onName(name)}
        onChange={(event) => onName(event.target.value)}
        error={submitted && !name.trim() ? t('errors.required') : null}
      />
      <Field
        label={t('presentation.consent')}
        name="consent"
        type="checkbox"
        checked={consent}
        onChange={(event) => onConsent(event.target.checked)}
        error={submitted && !consent ? t('presentation.consentRequired') : null}
      />
      <p className="field__hint">
        <ShopPageLink name="privacy">{t('legal.readPrivacy')}</ShopPageLink>
      </p>
    </>
  );
}
