import { useEffect, useState } from 'react';
import { RealtimeClient, type HubSession } from './client';

/**
 * How long a shared client stays connected after its last screen went: the next screen
 * of the same session (waiting room to room) takes it over within this time.
 */
export const SHARED_CLIENT_GRACE_MS = 2_000;

type Startable = Pick<RealtimeClient, 'start' | 'stop'>;

interface Entry<C> {
  client: C;
  users: number;
  started: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Realtime clients shared by the screens of one hub session, so that moving between them
 * keeps the socket (the guide would otherwise see the attendee reconnect).
 */
export function createSharedClients<C extends Startable>(create: (hub: HubSession) => C) {
  const entries = new Map<string, Entry<C>>();
  const keyOf = (hub: HubSession) => `${hub.url}|${hub.token}`;
  const entryOf = (hub: HubSession) => {
    const key = keyOf(hub);
    let entry = entries.get(key);
    if (!entry) {
      entry = { client: create(hub), users: 0, started: false };
      entries.set(key, entry);
    }
    return entry;
  };
  return {
    /** The session's client (not yet connected). */
    client: (hub: HubSession): C => entryOf(hub).client,
    /** A screen uses the client: it connects; the returned release ends that use. */
    retain(hub: HubSession): () => void {
      const entry = entryOf(hub);
      clearTimeout(entry.timer);
      entry.users += 1;
      if (!entry.started) {
        entry.started = true;
        entry.client.start();
      }
      return () => {
        entry.users -= 1;
        if (entry.users > 0) return;
        entry.timer = setTimeout(() => {
          entry.client.stop();
          entries.delete(keyOf(hub));
        }, SHARED_CLIENT_GRACE_MS);
      };
    },
  };
}

const attendeeClients = createSharedClients((hub) => new RealtimeClient(hub));

/** The session's realtime client, shared with the session's other screens while any is mounted. */
export function useSharedRealtimeClient(hub: HubSession): RealtimeClient {
  const [client] = useState(() => attendeeClients.client(hub));
  const { url, token } = hub;
  useEffect(() => attendeeClients.retain({ url, token }), [url, token]);
  return client;
}
