import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { useRuntimeConfig } from '@/config/runtime';
import { hubSessionOf, type JoinAppointmentResponse } from '@/lib/api/shop';
import { useSharedRealtimeClient } from '@/features/room/realtime/shared-client';
import { createAttendeeRoomStore } from '../stores/attendee-room';
import { takeCartGrant } from '../stores/attendee-session';
import { attendeeScreen } from '../utils/room-screen';

/**
 * An attendee's live connection for one screen (waiting room or room): the realtime
 * client, the room store, and the join-time cart grant sent once the socket is up.
 */
export function useAttendeeRoom(appointmentId: string, session: JoinAppointmentResponse) {
  const config = useRuntimeConfig();
  // Shared by the waiting room and the room: the switch keeps the socket.
  const client = useSharedRealtimeClient(hubSessionOf(session, config));
  const [room] = useState(() => createAttendeeRoomStore(client));
  const connection = useStore(client.store, (state) => state.connection);
  const screen = useStore(client.store, (state) => attendeeScreen(state.snapshot));
  const live = connection === 'connected' || connection === 'reconnected';

  useEffect(() => {
    if (!live || !takeCartGrant(appointmentId)) return;
    room.getState().sendJoinGrant().catch((error: unknown) => console.warn(error));
  }, [live, appointmentId, room]);

  return { client, room, connection, screen };
}
