import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { binary, freePorts, start, stop, waitUntilHealthy, type Spawned } from './global-setup';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SECRET = 'e2e-cluster-secret';

/** The tools a cluster needs besides our binaries; a missing one names itself. */
export function missingClusterTools(): string | null {
  for (const tool of ['nginx', 'redis-server']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return tool;
  }
  return null;
}

export interface Cluster {
  /** The storefront-proxy's origin (the app; its `/ws` goes to nginx). */
  origin: string;
  /** Each replica's own origin (its `/metrics`), by index. */
  replicaUrls: string[];
  /** SIGTERM to replica `index`: it drains (4013 to every socket) and exits; resolves once it has. */
  drain: (index: number) => Promise<void>;
  teardown: () => Promise<void>;
}

/**
 * A small cluster as `make cluster` runs it (scripts/cluster.sh): a real redis-server, `replicas`
 * hub replicas sharing it, a real nginx in front of them with deploy/hub-lb.conf (the
 * `hub-upstreams.conf` and `hub-listen.conf` beside it written here), and a storefront-proxy
 * whose HUB_URL is nginx, serving web/dist. All on free ports in a fresh directory.
 */
export async function startCluster({ replicas = 2, drainSecs = 2 } = {}): Promise<Cluster> {
  const [hubBinary, proxyBinary] = [binary('hub'), binary('storefront-proxy')];
  const [redisPort, nginxPort, proxyPort, ...replicaPorts] = await freePorts(3 + replicas);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'salesroom-e2e-cluster-'));
  const nginxDir = path.join(dataDir, 'nginx');
  await mkdir(path.join(nginxDir, 'tmp'), { recursive: true });
  await mkdir(path.join(dataDir, 'redis'));
  const servers: Spawned[] = [];
  const replicaServers: Spawned[] = [];
  const teardown = async () => {
    await Promise.all(servers.map(stop));
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const redis = start('redis-server', 'redis-server', {}, [
      '--port',
      String(redisPort),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'yes',
      '--dir',
      path.join(dataDir, 'redis'),
    ]);
    servers.push(redis);
    await waitForOutput(redis, /Ready to accept connections/);

    const common = {
      BIND: '127.0.0.1',
      DATA_DIR: dataDir,
      HUB_SECRET: SECRET,
      REDIS_URL: `redis://127.0.0.1:${redisPort}/`,
      HUB_DRAIN_SECS: String(drainSecs),
    };
    for (const [index, port] of replicaPorts.entries()) {
      const replica = start(`hub replica ${index + 1}`, hubBinary, { ...common, HUB_PORT: String(port) });
      servers.push(replica);
      replicaServers.push(replica);
    }
    for (const port of replicaPorts) await waitUntilHealthy(`http://127.0.0.1:${port}/healthz`, servers);

    // As scripts/cluster.sh writes it: the process settings, then deploy/hub-lb.conf.
    const user = process.getuid?.() === 0 ? 'user root;' : '';
    await writeFile(
      path.join(nginxDir, 'nginx.conf'),
      `${user}
worker_processes 1;
pid ${nginxDir}/nginx.pid;
error_log ${nginxDir}/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${nginxDir}/tmp/body;
    proxy_temp_path ${nginxDir}/tmp/proxy;
    fastcgi_temp_path ${nginxDir}/tmp/fastcgi;
    uwsgi_temp_path ${nginxDir}/tmp/uwsgi;
    scgi_temp_path ${nginxDir}/tmp/scgi;
    include ${ROOT}/deploy/hub-lb.conf;
}
`,
    );
    await writeFile(
      path.join(nginxDir, 'hub-upstreams.conf'),
      `upstream hubs {\n    least_conn;\n${replicaPorts.map((port) => `    server 127.0.0.1:${port} max_fails=0;\n`).join('')}}\n`,
    );
    await writeFile(path.join(nginxDir, 'hub-listen.conf'), `listen 127.0.0.1:${nginxPort};\n`);
    servers.push(
      start('nginx', 'nginx', {}, ['-c', path.join(nginxDir, 'nginx.conf'), '-p', `${nginxDir}/`, '-e', path.join(nginxDir, 'error.log'), '-g', 'daemon off;']),
    );
    await waitUntilHealthy(`http://127.0.0.1:${nginxPort}/healthz`, servers);

    const origin = `http://127.0.0.1:${proxyPort}`;
    servers.push(
      start('storefront-proxy', proxyBinary, {
        ...common,
        PORT: String(proxyPort),
        HUB_PORT: String(nginxPort),
        HUB_URL: `http://127.0.0.1:${nginxPort}`,
        SHOP_ENDPOINT: origin,
        SHOP_ACCESS_TOKEN: 'SWSCSALESROOMDEMO000000000',
        WEB_DIST: path.join(ROOT, 'web', 'dist'),
      }),
    );
    await waitUntilHealthy(`${origin}/healthz`, servers);
    return {
      origin,
      replicaUrls: replicaPorts.map((port) => `http://127.0.0.1:${port}`),
      drain: async (index) => {
        const replica = replicaServers[index]!;
        await stop(replica);
        // A drained replica exits by itself (code 0) within HUB_DRAIN_SECS; `stop` would SIGKILL it after 5 s.
        if (replica.child.exitCode !== 0) {
          throw new Error(`${replica.name} did not drain: exit ${replica.child.exitCode ?? replica.child.signalCode}\n${replica.output.join('')}`);
        }
      },
      teardown,
    };
  } catch (error) {
    await teardown();
    throw error;
  }

}

/** Resolves once `server` printed `pattern` (within 10 s). */
async function waitForOutput(server: Spawned, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (pattern.test(server.output.join(''))) return;
    if (server.child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${server.name} did not print ${pattern}:\n${server.output.join('')}`);
}

/** The `hub_connections` gauge of a replica (its attached sockets). */
export async function connectionsOf(replicaUrl: string): Promise<number> {
  const text = await (await fetch(`${replicaUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('hub_connections '));
  return line ? Number(line.split(' ')[1]) : 0;
}
