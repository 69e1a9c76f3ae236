import { useEffect, useState } from 'react';
import { useRuntimeConfig, type RuntimeConfig } from '@/config/runtime';
import { hubSessionOf, type JoinAppointmentResponse } from '@/lib/api/shop';
import { cartStore } from '@/lib/shop/cart';
import { RealtimeClient, type HubSession } from '../../realtime/client';
import { createSharedClients } from '../../realtime/shared-client';
import { presentationApi } from '../../session/presentation-api';
import { collectionsApi } from '../api/collections';
import { takeCartGrant } from '../stores/attendee-session';
import { AttendeeSession } from './attendee-session';

/** The wiring of the attendee's session to the shop's REST endpoints; the session itself knows no HTTP. */

interface AttendeeSessionArgs extends HubSession {
  appointmentId: string;
  contextToken: string;
  config: RuntimeConfig;
}

/** One attendee session per hub session, shared by the waiting room and the room: the switch keeps the socket. */
const attendeeSessions = createSharedClients(
  ({ url, token, appointmentId, contextToken, config }: AttendeeSessionArgs) =>
    new AttendeeSession(new RealtimeClient({ url, token }), presentationApi(config, contextToken), {
      collections: collectionsApi(config, contextToken),
      cart: cartStore,
      takeCartGrant: () => takeCartGrant(appointmentId),
    }),
);

/** The attendee's session of this join, connected while any of its screens is mounted. */
export function useAttendeeSession(appointmentId: string, joined: JoinAppointmentResponse): AttendeeSession {
  const config = useRuntimeConfig();
  const { url, token } = hubSessionOf(joined, config);
  const contextToken = joined.newContextToken;
  const [session] = useState(() => attendeeSessions.client({ url, token, appointmentId, contextToken, config }));
  useEffect(() => attendeeSessions.retain({ url, token, appointmentId, contextToken, config }), [url, token, appointmentId, contextToken, config]);
  return session;
}
