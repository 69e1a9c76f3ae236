import type { RuntimeConfig } from '@/config/runtime';
import { createAdminClient, type AdminSession } from '@/lib/api/shop';

/** Logs in with shop admin credentials (OAuth password grant). */
export async function logIn(config: RuntimeConfig, username: string, password: string): Promise<AdminSession> {
  const client = createAdminClient(config);
  await client.invoke('token post /oauth/token', {
    body: { grant_type: 'password', client_id: 'administration', scopes: 'write', username, password },
  });
  return client.getSessionData();
}
