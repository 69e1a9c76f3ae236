import { useId, type TextareaHTMLAttributes } from 'react';

/** A labelled textarea with its validation message (the shop's `Field` is for inputs). */
export function TextAreaField({
  label,
  error,
  ...textarea
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & { label: string; error?: string | null }) {
  const id = useId();
  return (
    <div className="field field--wide">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-invalid={!!error} aria-describedby={error ? `${id}-error` : undefined} {...textarea} />
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

/** Errors of fields the form does not show (a pointer it has no input for). */
export function otherErrors(errors: Record<string, string>, shown: string[]): string[] {
  return Object.entries(errors)
    .filter(([field]) => !shown.includes(field))
    .map(([field, text]) => `${field}: ${text}`);
}

/** A number from an input's text: empty is `undefined`, anything else what `Number` makes of it (the API judges it). */
export function numberOrUndefined(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed.replace(',', '.'));
  return Number.isFinite(value) ? value : trimmed;
}
