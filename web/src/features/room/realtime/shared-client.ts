import type { HubSession } from './client';

/**
 * How long a shared client stays connected after its last screen went: the next screen
 * of the same session (waiting room to room) takes it over within this time.
 */
export const SHARED_CLIENT_GRACE_MS = 2_000;

interface Startable {
  start(): void;
  stop(): void;
}

interface Entry<C> {
  client: C;
  users: number;
  started: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Realtime clients (or room sessions) shared by the screens of one hub session, so that
 * moving between them keeps the socket (the guide would otherwise see the attendee
 * reconnect). `H` is what `create` needs: the hub session and whatever else.
 */
export function createSharedClients<C extends Startable, H extends HubSession = HubSession>(create: (hub: H) => C) {
  const entries = new Map<string, Entry<C>>();
  const keyOf = (hub: HubSession) => `${hub.url}|${hub.token}`;
  const entryOf = (hub: H) => {
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
    client: (hub: H): C => entryOf(hub).client,
    /** A screen uses the client: it connects; the returned release ends that use. */
    retain(hub: H): () => void {
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
