import type { RuntimeConfig } from '@/config/runtime';
import { createAdminClient, type AdminSession, type InteractionTemplate } from '@/lib/api/shop';
import { saveAdminSession } from '../stores/admin-session';

export type { InteractionTemplate, InteractionTemplateType } from '@/lib/api/shop';

/** What the guide writes of a template (the appointment is the session's). */
export type InteractionTemplateInput = Pick<InteractionTemplate, 'name' | 'type' | 'productIds' | 'message'>;

/** The most templates the panel loads: the shop keeps at most 50 per appointment. */
export const MAX_TEMPLATES = 50;

/** The appointment's interaction templates (`dsr-interaction-template` of the Admin API). */
export interface InteractionTemplatesApi {
  load(): Promise<InteractionTemplate[]>;
  create(template: InteractionTemplateInput & { position: number }): Promise<InteractionTemplate>;
  update(id: string, template: InteractionTemplateInput): Promise<InteractionTemplate>;
  remove(id: string): Promise<void>;
}

export function interactionTemplatesApi(config: RuntimeConfig, session: () => AdminSession, appointmentId: string): InteractionTemplatesApi {
  const admin = () => {
    const client = createAdminClient(config, session());
    // A refreshed login is kept for the next call.
    client.hook('onAuthChange', saveAdminSession);
    return client;
  };
  return {
    async load() {
      const { data } = await admin().invoke('searchDsrInteractionTemplate post /search/dsr-interaction-template', {
        body: {
          filter: [{ type: 'equals', field: 'appointmentId', value: appointmentId }],
          sort: [{ field: 'position', order: 'ASC' }, { field: 'createdAt', order: 'ASC' }],
          limit: MAX_TEMPLATES,
        },
      });
      return data.data;
    },
    async create(template) {
      const { data } = await admin().invoke('createDsrInteractionTemplate post /dsr-interaction-template', {
        query: { _response: 'basic' },
        body: { ...template, appointmentId },
      });
      return data.data;
    },
    async update(id, template) {
      const { data } = await admin().invoke('updateDsrInteractionTemplate patch /dsr-interaction-template/{id}', {
        pathParams: { id },
        query: { _response: 'basic' },
        body: template,
      });
      return data.data;
    },
    async remove(id) {
      await admin().invoke('deleteDsrInteractionTemplate delete /dsr-interaction-template/{id}', { pathParams: { id } });
    },
  };
}
