import type { RuntimeConfig } from '@/config/runtime';
import { createStoreClient } from '@/lib/api/shop';

/**
 * Changes the name of the attendee of `contextToken` (`PATCH /store-api/dsr/appointment/attendee`);
 * the shop tells the hub, which shows the guides the new name.
 */
export async function renameAttendee(config: RuntimeConfig, contextToken: string, attendeeName: string): Promise<void> {
  await createStoreClient(config, contextToken).invoke('updateAttendee patch /dsr/appointment/attendee', {
    body: { attendeeName },
  });
}
