import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Field, SelectField } from '@/components/form';
import { notify } from '@/lib/ui/notifications';
import { useAdminApi } from '../../api/context';
import { errorText, fieldErrors, generalErrors } from '../../api/errors';
import { AdminPage, Notice } from '../../components/admin-page';
import { useAdminPath } from '../../components/admin-path';
import { numberOrUndefined, otherErrors, TextAreaField } from '../../components/form-fields';
import { germanPayload, germanText, useGermanLanguageId } from '../languages';
import type { Category, Manufacturer, Product } from '../types';
import { ProductImages } from './product-images';
import { ProductVariants } from './product-variants';

interface Draft {
  productNumber: string;
  name: string;
  nameDe: string;
  description: string;
  descriptionDe: string;
  gross: string;
  net: string;
  listGross: string;
  listNet: string;
  stock: string;
  active: boolean;
  manufacturerId: string;
  categories: string[];
}

const EMPTY: Draft = {
  productNumber: '',
  name: '',
  nameDe: '',
  description: '',
  descriptionDe: '',
  gross: '',
  net: '',
  listGross: '',
  listNet: '',
  stock: '0',
  active: true,
  manufacturerId: '',
  categories: [],
};

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

function draftOf(product: Product, germanId: string | null): Draft {
  const price = product.price?.[0];
  return {
    productNumber: product.productNumber,
    name: product.name ?? '',
    nameDe: germanText(product.translations, germanId, 'name'),
    description: product.description ?? '',
    descriptionDe: germanText(product.translations, germanId, 'description'),
    gross: text(price?.gross),
    net: text(price?.net),
    listGross: text(price?.listPrice?.gross),
    listNet: text(price?.listPrice?.net),
    stock: String(product.stock),
    active: product.active,
    manufacturerId: product.manufacturerId ?? '',
    categories: product.categories?.map((c) => c.id) ?? [],
  };
}

/** The Admin API's product payload of the form (German texts as a `de-DE` translation). */
export function productPayload(draft: Draft, variant = false): Record<string, unknown> {
  const listGross = numberOrUndefined(draft.listGross);
  const gross = numberOrUndefined(draft.gross);
  // A variant inherits what it leaves empty (name, description, price) from its parent.
  if (variant) {
    return {
      productNumber: draft.productNumber.trim(),
      ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
      ...(draft.description.trim() ? { description: draft.description } : {}),
      active: draft.active,
      stock: numberOrUndefined(draft.stock) ?? 0,
      ...(gross === undefined ? {} : { price: [{ gross, net: numberOrUndefined(draft.net) ?? null, linked: true, listPrice: listGross === undefined ? null : { gross: listGross, net: numberOrUndefined(draft.listNet) ?? null, linked: true } }] }),
      ...germanPayload({ name: draft.nameDe, description: draft.descriptionDe }),
    };
  }
  return {
    productNumber: draft.productNumber.trim(),
    name: draft.name.trim(),
    description: draft.description,
    active: draft.active,
    stock: numberOrUndefined(draft.stock) ?? 0,
    manufacturerId: draft.manufacturerId || null,
    price: [
      {
        gross: numberOrUndefined(draft.gross) ?? null,
        net: numberOrUndefined(draft.net) ?? null,
        linked: true,
        listPrice: listGross === undefined ? null : { gross: listGross, net: numberOrUndefined(draft.listNet) ?? null, linked: true },
      },
    ],
    categories: draft.categories.map((id) => ({ id })),
    ...germanPayload({ name: draft.nameDe, description: draft.descriptionDe }),
  };
}

const SHOWN = ['productNumber', 'name', 'description', 'stock', 'manufacturerId', 'price/0/gross', 'price/0/net', 'price/0/listPrice/gross', 'price/0/listPrice/net', 'categories'];

/** `/admin/products/new` and `/admin/products/:id`: texts per language, prices, stock, manufacturer, categories; images and variants once saved. */
export function ProductEditor() {
  const { t } = useTranslation();
  const api = useAdminApi();
  const adminPath = useAdminPath();
  const navigate = useNavigate();
  const { id } = useParams();
  const germanId = useGermanLanguageId();
  const [product, setProduct] = useState<Product | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [manufacturers, setManufacturers] = useState<Manufacturer[]>([]);
  const [categories, setCategories] = useState<Category[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    (): Promise<void> =>
      id
        ? api.get<Product>('product', id).then((found) => {
            setProduct(found);
            setDraft(draftOf(found, germanId));
          })
        : Promise.resolve(),
    [api, id, germanId],
  );

  useEffect(() => {
    void load().catch((failure: unknown) => setGeneral([errorText(failure, t('admin.common.failed'))]));
  }, [load, t]);

  useEffect(() => {
    void api.search<Manufacturer>('product-manufacturer', { limit: 500, sort: [{ field: 'name' }] }).then((r) => setManufacturers(r.data)).catch(() => undefined);
    void api.search<Category>('category', { limit: 500, sort: [{ field: 'level' }, { field: 'position' }] }).then((r) => setCategories(r.data)).catch(() => undefined);
  }, [api]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((current) => ({ ...current, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setGeneral([]);
    try {
      const body = productPayload(draft, !!product?.parentId);
      if (id) {
        await api.patch('product', id, body);
        await load();
      } else {
        const created = await api.create<Product>('product', body);
        void navigate(adminPath(`products/${created.id}`), { replace: true });
      }
      notify(t('admin.common.saved'), { type: 'success' });
    } catch (failure) {
      const fields = fieldErrors(failure);
      setErrors(fields);
      const rest = [...generalErrors(failure), ...otherErrors(fields, SHOWN)];
      setGeneral(Object.keys(fields).length ? [t('admin.common.fixErrors'), ...rest] : rest.length ? rest : [errorText(failure, t('admin.common.failed'))]);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!id || !window.confirm(t('admin.common.confirmDelete', { name: draft.name }))) return;
    try {
      await api.remove('product', id);
      notify(t('admin.common.deleted'), { type: 'success' });
      void navigate(adminPath('products'));
    } catch (failure) {
      setGeneral([errorText(failure, t('admin.common.failed'))]);
    }
  };

  const byId = new Map(categories.map((c) => [c.id, c]));
  const categoryLabel = (category: Category): string => {
    const parent = category.parentId ? byId.get(category.parentId) : undefined;
    return parent && parent.level > 1 ? `${categoryLabel(parent)} › ${category.name ?? ''}` : (category.name ?? '');
  };

  return (
    <AdminPage
      title={id ? t('admin.products.editTitle', { name: product?.name ?? '' }) : t('admin.products.newTitle')}
      actions={<Link to={adminPath(product?.parentId ? `products/${product.parentId}` : 'products')}>{t('admin.common.back')}</Link>}
    >
      {general.length > 0 && (
        <Notice>
          {general.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </Notice>
      )}
      <form className="admin-form" onSubmit={(event) => void submit(event)} noValidate>
        <fieldset>
          <legend>{t('admin.products.general')}</legend>
          <Field label={t('admin.products.number')} value={draft.productNumber} onChange={(e) => set('productNumber', e.target.value)} error={errors.productNumber} required />
          <Field label={t('admin.products.stock')} type="number" min={0} step={1} value={draft.stock} onChange={(e) => set('stock', e.target.value)} error={errors.stock} />
          <SelectField
            label={t('admin.products.manufacturer')}
            value={draft.manufacturerId}
            onChange={(e) => set('manufacturerId', e.target.value)}
            error={errors.manufacturerId}
            placeholder={t('admin.common.none')}
            options={manufacturers.map((m) => ({ value: m.id, label: m.name ?? m.id }))}
          />
          <Field label={t('admin.common.active')} type="checkbox" checked={draft.active} onChange={(e) => set('active', e.target.checked)} />
        </fieldset>
        <fieldset>
          <legend>{t('admin.products.texts')}</legend>
          <Field label={t('admin.common.nameEn')} value={draft.name} onChange={(e) => set('name', e.target.value)} error={errors.name} required />
          <Field label={t('admin.common.nameDe')} value={draft.nameDe} onChange={(e) => set('nameDe', e.target.value)} lang="de" />
          <TextAreaField label={t('admin.common.descriptionEn')} value={draft.description} onChange={(e) => set('description', e.target.value)} error={errors.description} />
          <TextAreaField label={t('admin.common.descriptionDe')} value={draft.descriptionDe} onChange={(e) => set('descriptionDe', e.target.value)} lang="de" />
        </fieldset>
        <fieldset>
          <legend>{t('admin.products.prices')}</legend>
          <p className="muted field--wide">{t('admin.products.pricesHint')}</p>
          <Field label={t('admin.products.priceGross')} inputMode="decimal" value={draft.gross} onChange={(e) => set('gross', e.target.value)} error={errors['price/0/gross']} required />
          <Field label={t('admin.products.priceNet')} inputMode="decimal" value={draft.net} onChange={(e) => set('net', e.target.value)} error={errors['price/0/net']} />
          <Field label={t('admin.products.listPriceGross')} inputMode="decimal" value={draft.listGross} onChange={(e) => set('listGross', e.target.value)} error={errors['price/0/listPrice/gross']} />
          <Field label={t('admin.products.listPriceNet')} inputMode="decimal" value={draft.listNet} onChange={(e) => set('listNet', e.target.value)} error={errors['price/0/listPrice/net']} />
        </fieldset>
        <fieldset>
          <legend>{t('admin.products.categories')}</legend>
          <ul className="admin-checklist field--wide">
            {categories
              .filter((category) => category.level > 1)
              .map((category) => (
                <li key={category.id}>
                  <label>
                    <input
                      type="checkbox"
                      checked={draft.categories.includes(category.id)}
                      onChange={(e) => set('categories', e.target.checked ? [...draft.categories, category.id] : draft.categories.filter((c) => c !== category.id))}
                    />{' '}
                    {categoryLabel(category)}
                  </label>
                </li>
              ))}
          </ul>
          {errors.categories && <p className="field__error">{errors.categories}</p>}
        </fieldset>
        <div className="admin-toolbar">
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('admin.common.save')}
          </button>
          {id && (
            <button type="button" className="button button--danger-outline" onClick={() => void remove()}>
              {t('admin.common.delete')}
            </button>
          )}
        </div>
      </form>
      {product ? (
        <>
          <ProductImages product={product} onChange={load} />
          {!product.parentId && <ProductVariants product={product} onChange={load} />}
        </>
      ) : (
        !id && <p className="muted">{t('admin.products.saveFirst')}</p>
      )}
    </AdminPage>
  );
}
