import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Field } from '@/components/form';
import { notify } from '@/lib/ui/notifications';
import { useAdminApi } from '../../api/context';
import { errorText, fieldErrors, syncErrors } from '../../api/errors';
import { Notice } from '../../components/admin-page';
import { useAdminPath } from '../../components/admin-path';
import type { Product, PropertyGroup } from '../types';
import { combinations, variantPayloads } from './variants';

/** A main product's variants: the ones it has, and new ones from picked property group options (one sync: all or none). */
export function ProductVariants({ product, onChange }: { product: Product; onChange: () => Promise<void> }) {
  const { t } = useTranslation();
  const api = useAdminApi();
  const adminPath = useAdminPath();
  const titleId = useId();
  const [groups, setGroups] = useState<PropertyGroup[]>([]);
  const [variants, setVariants] = useState<Product[]>([]);
  const [picked, setPicked] = useState<Record<string, string[]>>({});
  const [groupName, setGroupName] = useState('');
  const [groupOptions, setGroupOptions] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  const loadGroups = useCallback(
    () => api.search<PropertyGroup>('property-group', { limit: 100, sort: [{ field: 'name' }] }).then((answer) => setGroups(answer.data)),
    [api],
  );
  const loadVariants = useCallback(
    () => api.search<Product>('product', { limit: 500, filter: [{ type: 'equals', field: 'parentId', value: product.id }], sort: [{ field: 'productNumber' }] }).then((answer) => setVariants(answer.data)),
    [api, product.id],
  );
  useEffect(() => {
    void loadGroups().catch(() => undefined);
    void loadVariants().catch(() => undefined);
  }, [loadGroups, loadVariants, product.childCount]);

  const optionName = new Map(groups.flatMap((group) => (group.options ?? []).map((option) => [option.id, `${group.name ?? ''}: ${option.name ?? ''}`])));
  const combos = combinations(groups.map((group) => picked[group.id] ?? []));

  const generate = async () => {
    setError(null);
    try {
      await api.sync({ variants: { entity: 'product', action: 'upsert', payload: variantPayloads(product, combos) } });
      setPicked({});
      notify(t('admin.products.generated', { count: combos.length }), { type: 'success' });
      await onChange();
    } catch (failure) {
      const first = syncErrors(failure)[0];
      setError(first ? `${first.field}: ${first.message}` : errorText(failure, t('admin.common.failed')));
    }
  };

  const createGroup = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    setError(null);
    const options = groupOptions.split(',').map((name) => name.trim()).filter(Boolean);
    try {
      await api.create('property-group', { name: groupName.trim(), options: options.map((name, n) => ({ name, position: n + 1 })) });
      setGroupName('');
      setGroupOptions('');
      notify(t('admin.products.groupCreated'), { type: 'success' });
      await loadGroups();
    } catch (failure) {
      const fields = fieldErrors(failure);
      setErrors(fields);
      if (!fields.name) setError(errorText(failure, t('admin.common.failed')));
    }
  };

  return (
    <section className="admin-form" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('admin.products.variantsTitle')}</h2>
      {error && <Notice>{error}</Notice>}
      <h3>{t('admin.products.existingVariants')}</h3>
      {variants.length === 0 ? (
        <p className="muted">{t('admin.products.noVariants')}</p>
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('admin.products.number')}</th>
              <th scope="col">{t('admin.products.variants')}</th>
              <th scope="col">{t('admin.products.stock')}</th>
            </tr>
          </thead>
          <tbody>
            {variants.map((variant) => (
              <tr key={variant.id}>
                <td>
                  <Link to={adminPath(`products/${variant.id}`)}>{variant.productNumber}</Link>
                </td>
                <td>{(variant.options ?? []).map((option) => optionName.get(option.id) ?? option.id).join(', ')}</td>
                <td>{variant.stock}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted">{t('admin.products.variantsHint')}</p>
      {groups.length === 0 && <p className="muted">{t('admin.products.noGroups')}</p>}
      {groups.map((group) => (
        <fieldset key={group.id}>
          <legend>{group.name}</legend>
          <ul className="admin-checklist field--wide">
            {(group.options ?? []).map((option) => (
              <li key={option.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={picked[group.id]?.includes(option.id) ?? false}
                    onChange={(event) =>
                      setPicked((current) => ({
                        ...current,
                        [group.id]: event.target.checked ? [...(current[group.id] ?? []), option.id] : (current[group.id] ?? []).filter((id) => id !== option.id),
                      }))
                    }
                  />{' '}
                  {option.name}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      ))}
      <div className="admin-toolbar">
        <button type="button" className="button" disabled={combos.length === 0} onClick={() => void generate()}>
          {t('admin.products.generate', { count: combos.length })}
        </button>
      </div>
      <form onSubmit={(event) => void createGroup(event)} noValidate>
        <fieldset>
          <legend>{t('admin.products.newGroup')}</legend>
          <Field label={t('admin.products.groupName')} value={groupName} onChange={(e) => setGroupName(e.target.value)} error={errors.name} />
          <Field label={t('admin.products.groupOptions')} value={groupOptions} onChange={(e) => setGroupOptions(e.target.value)} error={errors.options ?? errors['options/0/name']} />
          <div>
            <button type="submit" className="button">
              {t('admin.products.createGroup')}
            </button>
          </div>
        </fieldset>
      </form>
    </section>
  );
}
