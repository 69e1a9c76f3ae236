import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'zustand';
import { Field, SelectField } from '@/components/form';
import { Spinner } from '@/components/spinner';
import { messagesOf } from '@/lib/api/messages';
import { violationsByField } from '@/lib/api/violations';
import { openConfirm } from '../../components/confirm';
import type { GuideSession } from '../session/guide-session';
import type { InteractionTemplate, InteractionTemplateInput, InteractionTemplateType } from '../api/interaction-templates';
import type { GuideProduct } from '../api/room-admin';
import { GuideProductLine } from './guide-product-line';
import { ProductSearch } from './product-search';
import '../../components/product-rows.css';
import './interaction-templates-panel.css';

const TYPES: InteractionTemplateType[] = ['highlight-product', 'open-product-page', 'instant-listing', 'message'];
/** The most products an instant-listing template holds (the shop's limit). */
const MAX_LISTING_PRODUCTS = 24;
const MAX_MESSAGE = 500;

const takesOneProduct = (type: InteractionTemplateType) => type === 'highlight-product' || type === 'open-product-page';

interface PanelProps {
  session: GuideSession;
  /** Live and not ended: a template can run. */
  canAct: boolean;
  /** Runs a hub request; a failure shows the cockpit's alert. */
  act: (request: () => Promise<unknown>) => Promise<void>;
}

/** The form's state: a new template (`id` null) or one being changed. */
interface Draft {
  id: string | null;
  name: string;
  type: InteractionTemplateType;
  products: GuideProduct[];
  message: string;
}

/**
 * The interaction template sidebar (spec section 2): interactions prepared for this
 * appointment (a product highlight, a product page, an instant listing, a chat
 * announcement) that run in one click with the room's own live actions; made, changed
 * and deleted here, kept by the shop for every guide of the appointment.
 */
export function InteractionTemplatesPanel({ session, canAct, act }: PanelProps) {
  const { t } = useTranslation();
  const { templates, failed } = useStore(session.templates);
  const slides = useStore(session.structure, (state) => state.slides);
  const [names, setNames] = useState<Map<string, GuideProduct>>(new Map());
  const [draft, setDraft] = useState<Draft | null>(null);
  const canList = session.listingLayout() !== null && slides.length > 0;

  useEffect(() => {
    if (session.templates.getState().templates === null) void session.templates.getState().load().catch(() => undefined);
  }, [session]);

  // The products of the templates, by id, for their names and pictures.
  const wanted = [...new Set((templates ?? []).flatMap((template) => template.productIds))].filter((id) => !names.has(id));
  const wantedKey = wanted.join(',');
  useEffect(() => {
    if (!wantedKey) return;
    let cancelled = false;
    session
      .productsByIds(wantedKey.split(','))
      .then((found) => !cancelled && setNames((known) => new Map([...known, ...found.map((p) => [p.id, p] as const)])))
      .catch((error: unknown) => console.warn('could not load the products of the templates', error));
    return () => {
      cancelled = true;
    };
  }, [session, wantedKey]);

  const run = (template: InteractionTemplate) => {
    const [first] = template.productIds;
    switch (template.type) {
      case 'highlight-product':
        return first && act(() => session.highlightProduct(first));
      case 'open-product-page':
        return first && act(() => session.openProductPage(first));
      case 'instant-listing':
        return act(() => session.presentListing(template.name, template.productIds));
      case 'message':
        return template.message && act(() => session.announce(template.message ?? ''));
    }
  };

  const edit = (template: InteractionTemplate) =>
    setDraft({
      id: template.id,
      name: template.name,
      type: template.type,
      products: template.productIds.map((id) => names.get(id) ?? { id, name: id, productNumber: '', coverUrl: null }),
      message: template.message ?? '',
    });

  const summary = (template: InteractionTemplate) =>
    template.type === 'message'
      ? template.message
      : template.productIds
          .map((id) => names.get(id)?.name ?? '…')
          .join(', ');

  return (
    <section className="templates-panel" aria-label={t('templates.title')} data-testid="templates-panel">
      <div className="templates-panel__list">
        <div className="templates-panel__head">
          <h2>{t('templates.title')}</h2>
          <button
            type="button"
            className="button button--small"
            disabled={draft !== null || (templates?.length ?? 0) >= 50}
            onClick={() => setDraft({ id: null, name: '', type: 'highlight-product', products: [], message: '' })}
          >
            {t('templates.new')}
          </button>
        </div>
        {failed && (
          <p className="alert" role="alert">
            {t('templates.loadFailed')}
          </p>
        )}
        {templates === null ? (
          failed ? null : <Spinner />
        ) : templates.length === 0 ? (
          <p className="room-empty">{t('templates.empty')}</p>
        ) : (
          <ol className="room-rows" aria-label={t('templates.title')}>
            {templates.map((template) => {
              const needsLayout = template.type === 'instant-listing' && !canList;
              return (
                <li key={template.id} className="room-row templates-panel__row" aria-label={template.name} data-testid="template">
                  <span className="room-row__text">
                    <span className="room-row__name">{template.name}</span>
                    <span className="templates-panel__kind">{t(`templates.types.${template.type}`)}</span>
                    <span className="templates-panel__summary">{summary(template)}</span>
                  </span>
                  <span className="room-row__actions">
                    <button
                      type="button"
                      className="button button--small button--primary"
                      disabled={!canAct || needsLayout}
                      title={needsLayout ? t('instantListing.noLayout') : undefined}
                      aria-label={t('templates.runTemplate', { name: template.name })}
                      onClick={() => void run(template)}
                    >
                      {t('templates.run')}
                    </button>
                    <button
                      type="button"
                      className="button button--small"
                      disabled={draft !== null}
                      aria-label={t('templates.editTemplate', { name: template.name })}
                      onClick={() => edit(template)}
                    >
                      {t('templates.edit')}
                    </button>
                    <button
                      type="button"
                      className="button button--small"
                      aria-label={t('templates.deleteTemplate', { name: template.name })}
                      onClick={() =>
                        openConfirm({
                          title: t('templates.deleteTitle', { name: template.name }),
                          text: t('templates.deleteText'),
                          confirmLabel: t('templates.delete'),
                          cancelLabel: t('cockpit.cancel'),
                          failedText: t('templates.saveFailed'),
                          danger: true,
                          onConfirm: async () => {
                            await session.templates.getState().remove(template.id);
                            if (draft?.id === template.id) setDraft(null);
                          },
                        })
                      }
                    >
                      {t('templates.delete')}
                    </button>
                  </span>
                </li>
              );
            })}
          </ol>
        )}
      </div>
      {draft && <TemplateForm key={draft.id ?? 'new'} session={session} draft={draft} onDone={() => setDraft(null)} />}
    </section>
  );
}

/** Makes or changes a template: its name, what it does, its products or its message. */
function TemplateForm({ session, draft: initial, onDone }: { session: GuideSession; draft: Draft; onDone: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [messages, setMessages] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [search] = useState(() => (value: string) => session.searchProducts(value));
  const headingId = useId();
  const productsWanted = draft.type !== 'message';
  const max = takesOneProduct(draft.type) ? 1 : MAX_LISTING_PRODUCTS;
  const chosen = new Set(draft.products.map((product) => product.id));

  const pick = (product: GuideProduct) =>
    setDraft((d) => ({ ...d, products: takesOneProduct(d.type) ? [product] : [...d.products, product].slice(0, MAX_LISTING_PRODUCTS) }));

  const submit = async () => {
    setSaving(true);
    setErrors({});
    setMessages([]);
    const input: InteractionTemplateInput = {
      name: draft.name.trim(),
      type: draft.type,
      productIds: productsWanted ? draft.products.map((product) => product.id) : [],
      message: draft.type === 'message' ? draft.message.trim() : null,
    };
    try {
      await session.templates.getState().save(draft.id, input);
      onDone();
    } catch (error) {
      // Pointers are `0/name`, `0/productIds/1`, …: one message per field.
      const fields: Record<string, string> = {};
      for (const [pointer, text] of Object.entries(violationsByField(error))) {
        const field = pointer.split('/')[1] ?? pointer;
        fields[field] ??= text;
      }
      setErrors(fields);
      if (Object.keys(fields).length === 0) setMessages(messagesOf(error, t('templates.saveFailed')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="templates-panel__form"
      aria-labelledby={headingId}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h3 id={headingId}>{draft.id ? t('templates.editTitle') : t('templates.newTitle')}</h3>
      <Field label={t('templates.name')} value={draft.name} maxLength={120} required error={errors.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
      <SelectField
        label={t('templates.type')}
        value={draft.type}
        error={errors.type}
        options={TYPES.map((type) => ({ value: type, label: t(`templates.types.${type}`) }))}
        onChange={(e) => {
          const type = e.target.value as InteractionTemplateType;
          setDraft({ ...draft, type, products: takesOneProduct(type) ? draft.products.slice(0, 1) : draft.products });
        }}
      />
      {draft.type === 'message' ? (
        <div className="field">
          <label htmlFor={`${headingId}-message`}>{t('templates.message')}</label>
          <textarea
            id={`${headingId}-message`}
            value={draft.message}
            maxLength={MAX_MESSAGE}
            rows={3}
            aria-invalid={!!errors.message}
            onChange={(e) => setDraft({ ...draft, message: e.target.value })}
          />
          {errors.message && <p className="field__error">{errors.message}</p>}
        </div>
      ) : (
        <div className="templates-panel__products">
          <p className="field__label">{t('templates.products', { count: draft.products.length, max })}</p>
          {draft.products.length > 0 && (
            <ol className="room-rows" aria-label={t('templates.chosen')}>
              {draft.products.map((product) => (
                <li key={product.id} className="room-row" aria-label={product.name}>
                  <GuideProductLine product={product} />
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={t('templates.removeProduct', { name: product.name })}
                    onClick={() => setDraft({ ...draft, products: draft.products.filter((p) => p.id !== product.id) })}
                  >
                    {t('room.remove')}
                  </button>
                </li>
              ))}
            </ol>
          )}
          {errors.productIds && <p className="field__error">{errors.productIds}</p>}
          <ProductSearch
            search={search}
            listClassName="templates-panel__found"
            actions={(product) => (
              <button
                type="button"
                className="button button--small"
                disabled={chosen.has(product.id) || (!takesOneProduct(draft.type) && draft.products.length >= max)}
                aria-label={t('templates.chooseProduct', { name: product.name })}
                onClick={() => pick(product)}
              >
                {chosen.has(product.id) ? t('templates.chosenOne') : t('templates.choose')}
              </button>
            )}
          />
        </div>
      )}
      {messages.map((message) => (
        <p key={message} className="alert" role="alert">
          {message}
        </p>
      ))}
      <div className="templates-panel__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {t('templates.save')}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {t('cockpit.cancel')}
        </button>
      </div>
    </form>
  );
}
