import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectField } from '@/components/form';
import { NotesEditor } from './notes-editor';
import type { Option } from './presentation-editor';
import { ProductPicker, useProductNames } from './product-picker';
import { SlideImage } from './slide-image';
import { hasImage, hasProduct, hasText, type SlideDraft } from './slides';

/** One slide of the builder: its drag handle, kind, title, content and notes per language. */
export function SlideCard({
  slide,
  index,
  count,
  disabled,
  errors,
  categories,
  layouts,
  onChange,
  onMove,
  onRemove,
}: {
  slide: SlideDraft;
  index: number;
  count: number;
  disabled: boolean;
  errors: Record<string, string>;
  categories: Option[];
  layouts: Option[];
  onChange: (slide: SlideDraft) => void;
  onMove: (step: number) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: slide.key, disabled });
  const names = useProductNames(hasProduct(slide.kind) ? [slide.productId].filter(Boolean) : slide.productIds);
  const set = <K extends keyof SlideDraft>(key: K, value: SlideDraft[K]) => onChange({ ...slide, [key]: value });
  const kind = t(`admin.presentations.kinds.${slide.kind}`);
  const title = t('admin.presentations.slideLabel', { number: index + 1, name: slide.title || kind });

  return (
    <li
      ref={setNodeRef}
      className={`admin-slide${isDragging ? ' admin-slide--dragging' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      aria-labelledby={`${id}-title`}
      data-testid="admin-slide"
    >
      <div className="admin-slide__head">
        <button
          type="button"
          ref={setActivatorNodeRef}
          className="admin-slide__handle"
          aria-label={t('admin.presentations.dragHandle', { name: title })}
          disabled={disabled}
          {...attributes}
          {...listeners}
        >
          ⠿
        </button>
        <h3 id={`${id}-title`}>{title}</h3>
        <span className="muted">{kind}</span>
        <button type="button" className="button button--small" disabled={disabled || index === 0} onClick={() => onMove(-1)}>
          {t('admin.presentations.moveUp')}
        </button>
        <button type="button" className="button button--small" disabled={disabled || index === count - 1} onClick={() => onMove(1)}>
          {t('admin.presentations.moveDown')}
        </button>
        <button type="button" className="button button--small" disabled={disabled} onClick={onRemove}>
          {t('admin.presentations.removeSlide')}
        </button>
      </div>
      <fieldset disabled={disabled} className="admin-slide__body">
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('admin.presentations.slideTitle')}</label>
          <input id={`${id}-name`} value={slide.title} maxLength={255} onChange={(event) => set('title', event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-name-de`}>{t('admin.presentations.slideTitleDe')}</label>
          <input id={`${id}-name-de`} value={slide.titleDe} maxLength={255} onChange={(event) => set('titleDe', event.target.value)} />
        </div>
        {slide.kind === 'productListing' && (
          <>
            <div className="field">
              <span>{t('admin.presentations.picked')}</span>
              {slide.productIds.length === 0 ? (
                <p className="muted">{t('admin.presentations.nonePicked')}</p>
              ) : (
                <ul className="admin-slide__products">
                  {slide.productIds.map((productId) => (
                    <li key={productId}>
                      {names[productId] ?? productId}{' '}
                      <button
                        type="button"
                        className="button button--small"
                        aria-label={t('admin.presentations.unpick', { name: names[productId] ?? productId })}
                        onClick={() => set('productIds', slide.productIds.filter((p) => p !== productId))}
                      >
                        ×
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              {errors.productIds && <p className="field__error">{errors.productIds}</p>}
            </div>
            <ProductPicker
              label={t('admin.presentations.addProduct')}
              exclude={slide.productIds}
              onPick={(productId) => set('productIds', [...slide.productIds, productId])}
            />
            <SelectField
              label={t('admin.presentations.orCategory')}
              value={slide.categoryId}
              error={errors.categoryId}
              placeholder={t('admin.common.none')}
              options={categories.map((c) => ({ value: c.id, label: c.name }))}
              onChange={(event) => set('categoryId', event.target.value)}
            />
          </>
        )}
        {hasProduct(slide.kind) && (
          <div className="field">
            <span>{t('admin.presentations.product')}</span>
            <p>{slide.productId ? (names[slide.productId] ?? slide.productId) : t('admin.presentations.nonePicked')}</p>
            {errors.productId && <p className="field__error">{errors.productId}</p>}
            <ProductPicker label={t('admin.presentations.chooseProduct')} onPick={(productId) => set('productId', productId)} />
          </div>
        )}
        {hasImage(slide.kind) && (
          <SlideImage mediaId={slide.mediaId} alt={slide.title} disabled={disabled} error={errors.mediaId} onChange={(mediaId) => set('mediaId', mediaId)} />
        )}
        {hasText(slide.kind) && (
          <>
            <NotesEditor label={t('admin.presentations.textEn')} value={slide.textEn} disabled={disabled} onChange={(html) => set('textEn', html)} />
            <NotesEditor label={t('admin.presentations.textDe')} value={slide.textDe} disabled={disabled} onChange={(html) => set('textDe', html)} />
            {errors.texts && <p className="field__error">{errors.texts}</p>}
          </>
        )}
        {slide.kind === 'cms' && layouts.length === 0 && <p className="muted">{t('admin.presentations.noLayouts')}</p>}
        {slide.kind === 'cms' && (
          <SelectField
            label={t('admin.presentations.layout')}
            value={slide.cmsPageId}
            error={errors.cmsPageId}
            placeholder={t('admin.presentations.chooseLayout')}
            options={layouts.map((l) => ({ value: l.id, label: l.name }))}
            onChange={(event) => set('cmsPageId', event.target.value)}
          />
        )}
        <NotesEditor label={t('admin.presentations.notesEn')} value={slide.notesEn} disabled={disabled} onChange={(html) => set('notesEn', html)} />
        <NotesEditor label={t('admin.presentations.notesDe')} value={slide.notesDe} disabled={disabled} onChange={(html) => set('notesDe', html)} />
      </fieldset>
    </li>
  );
}
