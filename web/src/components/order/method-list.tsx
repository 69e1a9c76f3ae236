import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import './checkout-section.css';
import './method-list.css';

export interface MethodOption {
  id: string;
  name: string;
  description?: string | null;
  note?: string | null;
}

/** A radio list of shipping or payment methods; choosing one calls `onChoose`. */
export function MethodList({ title, options, selectedId, busy, onChoose }: { title: string; options: MethodOption[]; selectedId: string | null | undefined; busy: boolean; onChoose: (id: string) => void }) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <fieldset className="checkout-section method-list" aria-busy={busy}>
      <legend className="section-title">{title}</legend>
      {options.length === 0 ? (
        <p className="muted">{t('checkout.noMethods')}</p>
      ) : (
        options.map((option) => (
          <label key={option.id} className={option.id === selectedId ? 'method-option is-selected' : 'method-option'}>
            <input type="radio" name={name} value={option.id} checked={option.id === selectedId} disabled={busy} onChange={() => onChoose(option.id)} />
            <span className="method-option__text">
              <span className="method-option__name">{option.name}</span>
              {option.description && <span className="method-option__description">{option.description}</span>}
            </span>
            {option.note && <span className="method-option__note">{option.note}</span>}
          </label>
        ))
      )}
    </fieldset>
  );
}
