import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RatingStars } from '@/components/rating-stars';
import { formatPrice } from '@/lib/format';
import type { ListingResult, PropertyGroup } from '../api/catalog';
import type { ListingQuery } from '../utils/listing-query';
import './swatch.css';
import './listing-filters.css';

export type FilterChange =
  | { type: 'toggle'; key: 'properties' | 'manufacturer'; id: string }
  | { type: 'remove'; key: 'properties' | 'manufacturer'; id: string }
  | { type: 'price'; min?: number; max?: number }
  | { type: 'rating'; value?: number }
  | { type: 'shippingFree'; value: boolean }
  | { type: 'reset' };

interface Named {
  id: string;
  name: string;
  translated?: { name?: string };
  colorHexCode?: string;
}

interface Aggregations {
  price?: { min?: number; max?: number };
  properties?: { entities?: PropertyGroup[] };
  manufacturer?: { entities?: Named[] };
  rating?: { max?: number };
  'shipping-free'?: { max?: boolean | number };
}

export const aggregationsOf = (result: ListingResult | null): Aggregations =>
  ((result?.aggregations ?? {}) as unknown as Aggregations) || {};

const label = (entity: Named) => entity.translated?.name || entity.name;

function PriceFilter({ query, range, onChange }: { query: ListingQuery; range: Aggregations['price']; onChange: (change: FilterChange) => void }) {
  const { t } = useTranslation();
  const [min, setMin] = useState(query.minPrice?.toString() ?? '');
  const [max, setMax] = useState(query.maxPrice?.toString() ?? '');
  // The inputs follow the query when it changes (a removed filter tag, back and forward).
  const queryKey = `${query.minPrice ?? ''}-${query.maxPrice ?? ''}`;
  const [shownKey, setShownKey] = useState(queryKey);
  if (shownKey !== queryKey) {
    setShownKey(queryKey);
    setMin(query.minPrice?.toString() ?? '');
    setMax(query.maxPrice?.toString() ?? '');
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const number = (value: string) => (value.trim() === '' || Number.isNaN(Number(value)) ? undefined : Math.max(0, Number(value)));
    onChange({ type: 'price', min: number(min), max: number(max) });
  };
  return (
    <form className="price-filter" onSubmit={submit}>
      <label>
        <span>{t('listing.priceFrom')}</span>
        <input type="number" inputMode="decimal" min={0} value={min} placeholder={range?.min !== undefined ? String(Math.floor(range.min)) : ''} onChange={(event) => setMin(event.target.value)} />
      </label>
      <label>
        <span>{t('listing.priceTo')}</span>
        <input type="number" inputMode="decimal" min={0} value={max} placeholder={range?.max !== undefined ? String(Math.ceil(range.max)) : ''} onChange={(event) => setMax(event.target.value)} />
      </label>
      <button type="submit" className="button button--small">
        {t('listing.applyPrice')}
      </button>
    </form>
  );
}

/** The filter panel of a listing, built from the listing's aggregations. */
export function ListingFilters({ result, query, onChange }: { result: ListingResult | null; query: ListingQuery; onChange: (change: FilterChange) => void }) {
  const { t } = useTranslation();
  const aggregations = aggregationsOf(result);
  const groups = (aggregations.properties?.entities ?? []).filter((group) => (group.options ?? []).length > 0);
  const manufacturers = aggregations.manufacturer?.entities ?? [];
  const maxRating = Math.floor(aggregations.rating?.max ?? 0);
  const shippingFreeAvailable = !!aggregations['shipping-free']?.max || query.shippingFree;

  return (
    <div className="filters">
      <details className="filter" open>
        <summary>{t('listing.price')}</summary>
        <PriceFilter query={query} range={aggregations.price} onChange={onChange} />
      </details>
      {manufacturers.length > 0 && (
        <details className="filter" open>
          <summary>{t('listing.manufacturer')}</summary>
          <ul className="filter__options">
            {manufacturers.map((manufacturer) => (
              <li key={manufacturer.id}>
                <label className="check">
                  <input type="checkbox" checked={query.manufacturer.includes(manufacturer.id)} onChange={() => onChange({ type: 'toggle', key: 'manufacturer', id: manufacturer.id })} />
                  <span>{label(manufacturer)}</span>
                </label>
              </li>
            ))}
          </ul>
        </details>
      )}
      {groups.map((group) => (
        <details key={group.id} className="filter" open>
          <summary>{group.translated?.name || group.name}</summary>
          <ul className={group.displayType === 'color' ? 'filter__options filter__options--swatches' : 'filter__options'}>
            {[...(group.options ?? [])]
              .sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || label(a).localeCompare(label(b)))
              .map((option) => (
                <li key={option.id}>
                  <label className="check">
                    <input type="checkbox" checked={query.properties.includes(option.id)} onChange={() => onChange({ type: 'toggle', key: 'properties', id: option.id })} />
                    {option.colorHexCode ? <span className="swatch" style={{ background: option.colorHexCode }} aria-hidden="true" /> : null}
                    <span>{label(option)}</span>
                  </label>
                </li>
              ))}
          </ul>
        </details>
      ))}
      {maxRating > 0 && (
        <details className="filter" open>
          <summary>{t('listing.rating')}</summary>
          <ul className="filter__options">
            {[5, 4, 3, 2, 1]
              .filter((stars) => stars <= maxRating)
              .map((stars) => (
                <li key={stars}>
                  <label className="check">
                    <input type="radio" name="rating" checked={query.rating === stars} onChange={() => onChange({ type: 'rating', value: stars })} />
                    <RatingStars rating={stars} />
                    <span>{t('listing.ratingAtLeast', { count: stars })}</span>
                  </label>
                </li>
              ))}
          </ul>
        </details>
      )}
      {shippingFreeAvailable && (
        <div className="filter filter--flat">
          <label className="check">
            <input type="checkbox" checked={query.shippingFree} onChange={(event) => onChange({ type: 'shippingFree', value: event.target.checked })} />
            <span>{t('listing.freeShipping')}</span>
          </label>
        </div>
      )}
    </div>
  );
}

/** Tags for the filters in effect, each removable; plus "reset all". */
export function ActiveFilters({ result, query, onChange }: { result: ListingResult | null; query: ListingQuery; onChange: (change: FilterChange) => void }) {
  const { t } = useTranslation();
  const aggregations = aggregationsOf(result);
  const options = new Map<string, string>();
  for (const group of aggregations.properties?.entities ?? []) {
    for (const option of group.options ?? []) options.set(option.id, label(option));
  }
  const manufacturers = new Map((aggregations.manufacturer?.entities ?? []).map((entry) => [entry.id, label(entry)]));
  const tags: { key: string; name: string; change: FilterChange }[] = [
    ...query.manufacturer.map((id) => ({ key: `m${id}`, name: manufacturers.get(id) ?? id, change: { type: 'remove', key: 'manufacturer', id } satisfies FilterChange })),
    ...query.properties.map((id) => ({ key: `p${id}`, name: options.get(id) ?? id, change: { type: 'remove', key: 'properties', id } satisfies FilterChange })),
  ];
  if (query.minPrice !== undefined || query.maxPrice !== undefined) {
    const name = `${query.minPrice !== undefined ? formatPrice(query.minPrice) : '…'} – ${query.maxPrice !== undefined ? formatPrice(query.maxPrice) : '…'}`;
    tags.push({ key: 'price', name, change: { type: 'price' } });
  }
  if (query.rating) tags.push({ key: 'rating', name: t('listing.ratingAtLeast', { count: query.rating }), change: { type: 'rating' } });
  if (query.shippingFree) tags.push({ key: 'shipping', name: t('listing.freeShipping'), change: { type: 'shippingFree', value: false } });
  if (tags.length === 0) return null;
  return (
    <div className="active-filters" aria-label={t('listing.activeFilters')} role="group">
      {tags.map((tag) => (
        <button key={tag.key} type="button" className="tag" aria-label={t('listing.removeFilter', { name: tag.name })} onClick={() => onChange(tag.change)}>
          {tag.name} <span aria-hidden="true">×</span>
        </button>
      ))}
      <button type="button" className="link-button" onClick={() => onChange({ type: 'reset' })}>
        {t('listing.resetAll')}
      </button>
    </div>
  );
}
