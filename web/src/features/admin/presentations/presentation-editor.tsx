import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Field } from '@/components/form';
import { useRuntimeConfig } from '@/config/runtime';
import { createStoreClient } from '@/lib/api/shop';
import { useAdminApi, useAdminSession } from '../api/context';
import { errorText, fieldErrors } from '../api/errors';
import { EditorActions, EditorPage, type EditorMessage } from '../components/editor-page';
import { useAdminPath } from '../components/admin-path';
import { SlideCard } from './slide-card';
import { SlidePreview } from './slide-preview';
import { move, newSlide, problemField, SLIDE_KINDS, slideErrors, slideProblem, slidesFromPages, toPages, type PageEntity, type SlideDraft, type SlideKind } from './slides';
import './presentations.css';

interface PresentationEntity {
  id: string;
  name: string;
  pages: PageEntity[];
}

export interface Option {
  id: string;
  name: string;
}

function useLanguageIds(): { en?: string; de?: string } {
  const config = useRuntimeConfig();
  const [ids, setIds] = useState<{ en?: string; de?: string }>({});
  useEffect(() => {
    createStoreClient(config)
      .invoke('readLanguages post /language', { body: { associations: { translationCode: {} } } })
      .then(({ data }) => {
        const found: { en?: string; de?: string } = {};
        for (const language of data.elements ?? []) {
          const code = language.translationCode?.code ?? '';
          if (code.startsWith('en')) found.en ??= language.id;
          if (code.startsWith('de')) found.de ??= language.id;
        }
        setIds(found);
      })
      .catch(() => setIds({}));
  }, [config]);
  return ids;
}

/**
 * A presentation and its slide builder: texts, images, texts with an image (an intro),
 * product listings (picked products or a category), product details, a product with a
 * text, any CMS layout; the server makes the pages of all but the last (no layout editor
 * needed, so an empty shop can build a presentation). Reordered by dragging or by keyboard
 * (the handle: Space to lift, arrows to move, Space to drop; or the move buttons);
 * notes per language. Saved as one list.
 */
export function PresentationEditor() {
  const { id } = useParams();
  const { t } = useTranslation();
  const api = useAdminApi();
  const session = useAdminSession();
  const navigate = useNavigate();
  const adminPath = useAdminPath();
  const languages = useLanguageIds();
  const [name, setName] = useState('');
  const [slides, setSlides] = useState<SlideDraft[]>([]);
  const [stored, setStored] = useState<PresentationEntity | null>(null);
  const [categories, setCategories] = useState<Option[]>([]);
  const [layouts, setLayouts] = useState<Option[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<EditorMessage | null>(null);
  const [busy, setBusy] = useState(false);
  const [addKind, setAddKind] = useState<SlideKind>('productListing');
  const [moved, setMoved] = useState('');
  const sensors = useSensors(useSensor(PointerSensor), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const isAdmin = session?.role === 'admin';

  useEffect(() => {
    api
      .search<{ id: string; name: string | null }>('category', { limit: 500, sort: [{ field: 'name' }] })
      .then((found) => setCategories(found.data.map((c) => ({ id: c.id, name: c.name ?? c.id }))))
      .catch(() => setCategories([]));
    api
      .search<{ id: string; name: string; type: string }>('cms-page', {
        limit: 500,
        sort: [{ field: 'name' }],
        filter: [{ type: 'not', queries: [{ type: 'prefix', field: 'name', value: 'slide:' }] }],
      })
      .then((found) => setLayouts(found.data.map((c) => ({ id: c.id, name: `${c.name} (${c.type})` }))))
      .catch(() => setLayouts([]));
  }, [api]);

  useEffect(() => {
    if (!id) return;
    let current = true;
    api
      .get<PresentationEntity>('dsr-presentation', id)
      .then((found) => {
        if (!current) return;
        setStored(found);
        setName(found.name);
        setSlides(slidesFromPages(found.pages, languages));
      })
      .catch((failure: unknown) => current && setMessage({ kind: 'error', text: errorText(failure, t('admin.common.failed')) }));
    return () => {
      current = false;
    };
  }, [api, id, languages, t]);

  const kindLabel = (kind: SlideKind) => t(`admin.presentations.kinds.${kind}`);
  const label = (key: string | number) => {
    const index = slides.findIndex((s) => s.key === key);
    const slide = slides[index];
    return slide ? t('admin.presentations.slideLabel', { number: index + 1, name: slide.title || kindLabel(slide.kind) }) : '';
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('admin.presentations.dnd.picked', { name: label(active.id) }),
    onDragOver: ({ active, over }) =>
      over ? t('admin.presentations.dnd.over', { name: label(active.id), position: slides.findIndex((s) => s.key === over.id) + 1 }) : undefined,
    onDragEnd: ({ active, over }) =>
      over ? t('admin.presentations.dnd.dropped', { name: label(active.id), position: slides.findIndex((s) => s.key === over.id) + 1 }) : undefined,
    onDragCancel: ({ active }) => t('admin.presentations.dnd.cancelled', { name: label(active.id) }),
  };

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = slides.findIndex((s) => s.key === active.id);
    const to = slides.findIndex((s) => s.key === over.id);
    setSlides((list) => move(list, from, to));
  }

  function moveBy(index: number, step: number) {
    const to = index + step;
    if (to < 0 || to >= slides.length) return;
    const slide = slides[index];
    setSlides((list) => move(list, index, to));
    if (slide) setMoved(t('admin.presentations.dnd.dropped', { name: slide.title || kindLabel(slide.kind), position: to + 1 }));
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = t('admin.presentations.errors.nameRequired');
    slides.forEach((slide, index) => {
      const problem = slideProblem(slide);
      if (problem) problems[`pages/${index}/${problemField(problem)}`] = t(`admin.presentations.errors.${problem}`);
    });
    if (Object.keys(problems).length) {
      setErrors(problems);
      setMessage({ kind: 'error', text: t('admin.common.fixErrors') });
      return;
    }
    setBusy(true);
    setErrors({});
    setMessage(null);
    const body = { name: name.trim(), pages: toPages(slides) };
    try {
      if (stored) {
        await api.patch('dsr-presentation', stored.id, body);
        const found = await api.get<PresentationEntity>('dsr-presentation', stored.id);
        setStored(found);
        setSlides(slidesFromPages(found.pages, languages));
        setMessage({ kind: 'success', text: t('admin.common.saved') });
      } else {
        const created = await api.create<PresentationEntity>('dsr-presentation', body);
        void navigate(adminPath(`presentations/${created.id}`), { replace: true });
      }
    } catch (failure) {
      const fields = fieldErrors(failure);
      setErrors(fields);
      setMessage({ kind: 'error', text: Object.keys(fields).length ? t('admin.common.fixErrors') : errorText(failure, t('admin.common.failed')) });
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    if (!stored || !window.confirm(t('admin.common.confirmDelete', { name: stored.name }))) return;
    try {
      await api.remove('dsr-presentation', stored.id);
      void navigate(adminPath('presentations'));
    } catch (failure) {
      setMessage({ kind: 'error', text: errorText(failure, t('admin.common.failed')) });
    }
  }

  const bySlide = slideErrors(errors);
  return (
    <EditorPage title={stored ? t('admin.presentations.editTitle', { name: stored.name }) : t('admin.presentations.newTitle')} backTo={adminPath('presentations')} message={message}>
      <form className="admin-form" onSubmit={(event) => void save(event)} noValidate>
        <fieldset disabled={!isAdmin || busy}>
          <Field label={t('admin.presentations.name')} value={name} error={errors.name} required onChange={(event) => setName(event.target.value)} />
        </fieldset>
        <section aria-labelledby="slides-title" className="admin-slides">
          <h2 id="slides-title">{t('admin.presentations.slides')}</h2>
          <p className="muted" id="slides-help">
            {t('admin.presentations.reorderHelp')}
          </p>
          {slides.length === 0 && <p className="muted">{t('admin.presentations.noSlides')}</p>}
          <DndContext
            sensors={sensors}
            collisionDetection={closestCenter}
            onDragEnd={onDragEnd}
            accessibility={{ announcements, screenReaderInstructions: { draggable: t('admin.presentations.dnd.instructions') } }}
          >
            <SortableContext items={slides.map((s) => s.key)} strategy={verticalListSortingStrategy}>
              <ol className="admin-slides__list">
                {slides.map((slide, index) => (
                  <SlideCard
                    key={slide.key}
                    slide={slide}
                    index={index}
                    count={slides.length}
                    disabled={!isAdmin || busy}
                    errors={bySlide[index] ?? {}}
                    categories={categories}
                    layouts={layouts}
                    onChange={(next) => setSlides((list) => list.map((s) => (s.key === slide.key ? next : s)))}
                    onMove={(step) => moveBy(index, step)}
                    onRemove={() => setSlides((list) => list.filter((s) => s.key !== slide.key))}
                  />
                ))}
              </ol>
            </SortableContext>
          </DndContext>
          <p role="status" className="visually-hidden">
            {moved}
          </p>
          {isAdmin && (
            <div className="admin-toolbar">
              <div className="field">
                <label htmlFor="slide-kind">{t('admin.presentations.addKind')}</label>
                <select id="slide-kind" value={addKind} onChange={(event) => setAddKind(event.target.value as SlideKind)}>
                  {SLIDE_KINDS.map((kind) => (
                    <option key={kind} value={kind}>
                      {kindLabel(kind)}
                    </option>
                  ))}
                </select>
              </div>
              <button type="button" className="button" onClick={() => setSlides((list) => [...list, newSlide(addKind)])}>
                {t('admin.presentations.addSlide')}
              </button>
            </div>
          )}
        </section>
        <EditorActions canEdit={isAdmin} stored={!!stored} busy={busy} onDelete={() => void remove()} />
      </form>
      {stored && <SlidePreview presentationId={stored.id} languages={languages} />}
    </EditorPage>
  );
}
