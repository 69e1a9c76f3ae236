import i18next from 'i18next';

/** A rule returns the message to show, or null when the value is fine. */
export type Rule = (value: string) => string | null;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The validation rules of spec section 5, with their texts in the page's language. */
export const rules = {
  required: (): Rule => (value) => (value.trim() ? null : i18next.t('validation.required')),
  requiredIf: (condition: () => boolean): Rule => (value) => (condition() && !value.trim() ? i18next.t('validation.requiredIf') : null),
  email: (): Rule => (value) => (!value.trim() || EMAIL.test(value.trim()) ? null : i18next.t('validation.email')),
  minLength: (min: number): Rule => (value) => (!value || value.length >= min ? null : i18next.t('validation.minLength', { min })),
  maxLength: (max: number): Rule => (value) => (value.length <= max ? null : i18next.t('validation.maxLength', { max })),
  between: (field: string, min: number, max: number): Rule => (value) =>
    !value || (value.length >= min && value.length <= max) ? null : i18next.t('validation.between', { field, min, max }),
};

/** The first message of the rules that fail, or null. */
export function validate(value: string, fieldRules: Rule[]): string | null {
  for (const rule of fieldRules) {
    const message = rule(value);
    if (message) return message;
  }
  return null;
}

/** Upload check (spec section 5): jpg/jpeg or png, at most 5 MB. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export function validUpload(file: { name: string; type?: string; size: number }): boolean {
  const typeOk = /^image\/(jpeg|png)$/.test(file.type ?? '') || /\.(jpe?g|png)$/i.test(file.name);
  return typeOk && file.size <= UPLOAD_MAX_BYTES;
}
