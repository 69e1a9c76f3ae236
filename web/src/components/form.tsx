import { useId, type InputHTMLAttributes } from 'react';

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'aria-invalid' | 'aria-describedby'> & {
  label: string;
  error?: string | null;
};

/** A labelled input (a checkbox shows its label beside it) with its validation message. */
export function Field({ label, error, type = 'text', ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={type === 'checkbox' ? 'field field--checkbox' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} type={type} aria-invalid={!!error} aria-describedby={error ? errorId : undefined} {...input} />
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
