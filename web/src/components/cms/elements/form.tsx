import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/form';
import { shopClient } from '@/lib/shop/session';
import { rules, validate } from '@/lib/validation';
import { configValue } from '../mapping';
import type { CmsElementProps } from '../context';
import './form.css';

type Values = Record<'firstName' | 'lastName' | 'email' | 'phone' | 'subject' | 'comment', string>;

const empty: Values = { firstName: '', lastName: '', email: '', phone: '', subject: '', comment: '' };

/** The contact or newsletter form of a form element. */
export function CmsForm({ slot }: CmsElementProps) {
  const { t } = useTranslation();
  const type = configValue<string>(slot, 'type') ?? 'contact';
  const title = configValue<string>(slot, 'title');
  const [values, setValues] = useState<Values>(empty);
  const [submitted, setSubmitted] = useState(false);
  const [state, setState] = useState<'idle' | 'busy' | 'sent' | 'failed'>('idle');
  const newsletter = type === 'newsletter';

  const errors: Partial<Record<keyof Values, string | null>> = {
    email: validate(values.email, [rules.required(), rules.email()]),
    ...(newsletter
      ? {}
      : {
          firstName: validate(values.firstName, [rules.required()]),
          lastName: validate(values.lastName, [rules.required()]),
          subject: validate(values.subject, [rules.required()]),
          comment: validate(values.comment, [rules.required(), rules.minLength(10)]),
        }),
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (Object.values(errors).some(Boolean)) return;
    setState('busy');
    try {
      if (newsletter) {
        await shopClient().invoke('subscribeToNewsletter post /newsletter/subscribe', {
          body: { email: values.email, option: 'subscribe', storefrontUrl: window.location.origin },
        });
      } else {
        await shopClient().invoke('sendContactMail post /contact-form', { body: { ...values, slotId: slot.id } });
      }
      setState('sent');
    } catch {
      setState('failed');
    }
  }

  if (state === 'sent') {
    return (
      <p className="alert alert--success" role="status">
        {newsletter ? t('cms.subscribed') : t('cms.sent')}
      </p>
    );
  }
  const field = (name: keyof Values, label: string, extra: { type?: string; autoComplete?: string } = {}) => (
    <Field
      label={label}
      name={name}
      value={values[name]}
      onChange={(event) => setValues({ ...values, [name]: event.target.value })}
      error={submitted ? (errors[name] ?? null) : null}
      {...extra}
    />
  );
  return (
    <form className="cms-form" onSubmit={(event) => void submit(event)} noValidate>
      <h2>{title || (newsletter ? t('cms.newsletterTitle') : t('cms.contactTitle'))}</h2>
      {!newsletter && (
        <div className="cms-form__row">
          {field('firstName', t('cms.firstName'), { autoComplete: 'given-name' })}
          {field('lastName', t('cms.lastName'), { autoComplete: 'family-name' })}
        </div>
      )}
      {field('email', t('cms.email'), { type: 'email', autoComplete: 'email' })}
      {!newsletter && (
        <>
          {field('phone', t('cms.phone'), { type: 'tel', autoComplete: 'tel' })}
          {field('subject', t('cms.subject'))}
          <div className="field">
            <label htmlFor={`${slot.id}-comment`}>{t('cms.message')}</label>
            <textarea
              id={`${slot.id}-comment`}
              rows={5}
              value={values.comment}
              aria-invalid={submitted && !!errors.comment}
              onChange={(event) => setValues({ ...values, comment: event.target.value })}
            />
            {submitted && errors.comment && <p className="field__error">{errors.comment}</p>}
          </div>
        </>
      )}
      {state === 'failed' && <p className="alert">{t('errors.generic')}</p>}
      <button type="submit" className="button button--primary" disabled={state === 'busy'}>
        {newsletter ? t('cms.subscribe') : t('cms.send')}
      </button>
    </form>
  );
}
