import { useTranslation } from 'react-i18next';
import type { PropertyGroup } from '../api/catalog';
import { isCombinable, selectedOptions, type VariantRef } from '../utils/variants';
import './swatch.css';
import './variant-selector.css';

/** One row of choices per option group (size, colour …); choosing one switches the variant. */
export function VariantSelector({
  groups,
  optionIds,
  variants,
  onSelect,
  busy,
}: {
  groups: PropertyGroup[];
  optionIds: string[];
  variants: VariantRef[];
  onSelect: (groupId: string, optionId: string) => void;
  busy?: boolean;
}) {
  const { t } = useTranslation();
  const selected = selectedOptions(groups, optionIds);
  if (groups.length === 0) return null;
  return (
    <div className="variants" aria-busy={busy}>
      {groups.map((group) => {
        const groupName = group.translated?.name || group.name;
        const chosen = group.options?.find((option) => option.id === selected[group.id]);
        return (
          <fieldset key={group.id} className="variants__group">
            <legend>
              {groupName}
              {chosen ? <span className="variants__chosen">: {chosen.translated?.name || chosen.name}</span> : null}
            </legend>
            <div className="variants__options">
              {[...(group.options ?? [])]
                .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
                .map((option) => {
                  const name = option.translated?.name || option.name;
                  const active = selected[group.id] === option.id;
                  const combinable = isCombinable(variants, groups, selected, group.id, option.id);
                  return (
                    <label
                      key={option.id}
                      className={`variant-option${option.colorHexCode && group.displayType === 'color' ? ' variant-option--color' : ''}`}
                      data-active={active}
                      data-unavailable={!combinable}
                      title={combinable ? name : `${name} – ${t('product.variantUnavailable')}`}
                    >
                      <input
                        type="radio"
                        name={`group-${group.id}`}
                        value={option.id}
                        checked={active}
                        disabled={busy}
                        onChange={() => onSelect(group.id, option.id)}
                      />
                      {option.colorHexCode && group.displayType === 'color' ? (
                        <span className="swatch swatch--large" style={{ background: option.colorHexCode }} aria-hidden="true" />
                      ) : null}
                      <span className={option.colorHexCode && group.displayType === 'color' ? 'visually-hidden' : undefined}>{name}</span>
                    </label>
                  );
                })}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}
