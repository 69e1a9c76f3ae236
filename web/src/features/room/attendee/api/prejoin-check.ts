import type { Schemas } from '@shopware/api-client/store-api-types';
import type { RuntimeConfig } from '@/config/runtime';
import { createStoreClient } from '@/lib/api/shop';
import type { JoinProblem } from './join-problem';

/** `GET /store-api/dsr/appointment/{path}/basic-setting`, with what storefront-proxy adds for the pre-join check. */
export type BasicSetting = Schemas['AppointmentBasicSettingResponse'] & {
  /** The appointment has ended. */
  ended?: boolean;
  /** Now is within its access window. */
  accessible?: boolean;
};

/** The appointment's basic setting (no attendee needed); rejects as the join would (404: unknown). */
export async function loadBasicSetting(config: RuntimeConfig, presentationPath: string): Promise<BasicSetting> {
  const { data } = await createStoreClient(config).invoke('dsrReadAppointmentSettings get /dsr/appointment/{presentationPath}/basic-setting', {
    pathParams: { presentationPath },
  });
  return data;
}

/**
 * What the pre-join screen says instead of asking for a name: an ended appointment, one
 * outside its window, one for customers only to someone not logged in. Null: ask.
 */
export function prejoinProblem(setting: BasicSetting, loggedIn: boolean): JoinProblem | null {
  if (setting.ended) return 'ended';
  if (setting.accessible === false) return 'notAccessible';
  if (setting.attendeeRestrictionType === 'customer' && !loggedIn) return 'restricted';
  return null;
}
