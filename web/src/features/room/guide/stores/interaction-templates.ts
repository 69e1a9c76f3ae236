import { createStore } from 'zustand/vanilla';
import type { InteractionTemplate, InteractionTemplateInput, InteractionTemplatesApi } from '../api/interaction-templates';

export interface InteractionTemplatesState {
  /** The appointment's templates in their order; null until the first load. */
  templates: InteractionTemplate[] | null;
  /** The last load failed. */
  failed: boolean;
  load(): Promise<void>;
  /** Creates a template (`id` null) or changes one; throws the shop's refusal. */
  save(id: string | null, template: InteractionTemplateInput): Promise<InteractionTemplate>;
  remove(id: string): Promise<void>;
}

/** The guide's interaction templates (spec: "interaction template sidebar"), as the shop keeps them per appointment. */
export function createInteractionTemplatesStore(api: InteractionTemplatesApi) {
  return createStore<InteractionTemplatesState>()((set, get) => ({
    templates: null,
    failed: false,
    async load() {
      try {
        set({ templates: await api.load(), failed: false });
      } catch (error) {
        set({ failed: true });
        throw error;
      }
    },
    async save(id, template) {
      const list = get().templates ?? [];
      if (id === null) {
        const position = list.reduce((last, t) => Math.max(last, t.position + 1), 0);
        const created = await api.create({ ...template, position });
        set({ templates: [...(get().templates ?? []), created] });
        return created;
      }
      const changed = await api.update(id, template);
      set({ templates: (get().templates ?? []).map((t) => (t.id === id ? changed : t)) });
      return changed;
    },
    async remove(id) {
      await api.remove(id);
      set({ templates: (get().templates ?? []).filter((t) => t.id !== id) });
    },
  }));
}
