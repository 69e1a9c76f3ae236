import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/ui/notifications';
import { errorText, fieldErrors, generalErrors } from '../api/errors';
import { otherErrors } from './form-fields';

/**
 * The save / delete state of a backoffice form: `run` does the write, then shows
 * "saved" or puts the API's violations at their fields (`errors`, by field path) and the
 * rest in `general` (in the page's language).
 */
export function useEntityForm(shownFields: string[]) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>, done: string = t('admin.common.saved')): Promise<boolean> => {
    setBusy(true);
    setErrors({});
    setGeneral([]);
    try {
      await work();
      notify(done, { type: 'success' });
      return true;
    } catch (failure) {
      const fields = fieldErrors(failure);
      setErrors(fields);
      const rest = [...generalErrors(failure), ...otherErrors(fields, shownFields)];
      setGeneral(Object.keys(fields).length ? [t('admin.common.fixErrors'), ...rest] : rest.length ? rest : [errorText(failure, t('admin.common.failed'))]);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const reset = () => {
    setErrors({});
    setGeneral([]);
  };

  return { errors, general, busy, run, reset };
}
