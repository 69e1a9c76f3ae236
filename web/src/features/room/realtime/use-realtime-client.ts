import { useEffect, useState } from 'react';
import { RealtimeClient, type HubSession } from './client';

/**
 * A realtime client for this component's lifetime: connected while mounted,
 * disconnected on unmount. Mount a new component (or change its key) for another hub session.
 */
export function useRealtimeClient(hub: HubSession): RealtimeClient {
  const [client] = useState(() => new RealtimeClient(hub));
  useEffect(() => {
    client.start();
    return () => client.stop();
  }, [client]);
  return client;
}
