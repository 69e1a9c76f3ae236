import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const WEB_DIR = path.resolve(import.meta.dirname, '..');
const READY_TIMEOUT_MS = 30_000;
const SECRET = 'e2e-secret';

export interface Spawned {
  name: string;
  child: ChildProcess;
  output: string[];
}

/** Ports that are free now: each is held until all are picked, so they differ. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      const server = createServer();
      return new Promise<Server>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve(server));
      });
    }),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export function binary(name: string): string {
  const file = path.resolve(WEB_DIR, process.env.SALESROOM_BIN_DIR || '../target/debug', name);
  if (!existsSync(file)) throw new Error(`${file} does not exist: build it (cargo build) or set SALESROOM_BIN_DIR`);
  return file;
}

export function start(name: string, file: string, env: Record<string, string>, args: string[] = []): Spawned {
  const child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { name, child, output };
}

export async function waitUntilHealthy(url: string, servers: Spawned[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const exited = servers.find((server) => server.child.exitCode !== null);
    if (exited) throw new Error(`${exited.name} exited with code ${exited.child.exitCode}:\n${exited.output.join('')}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const logs = servers.map((server) => `--- ${server.name}\n${server.output.join('')}`).join('\n');
  throw new Error(`${url} was not healthy within ${READY_TIMEOUT_MS / 1000} s\n${logs}`);
}

export function stop({ child }: Spawned): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export interface Servers {
  /** The storefront-proxy's origin: the app, the shop APIs and the hub socket. */
  origin: string;
  /** The embedded media server's signalling URL (as the hub hands it to browsers), when it runs. */
  sfuUrl: string | null;
  /** The hub's own origin (its `/metrics` and `/healthz`), for tests that count what it publishes. */
  hubUrl: string;
  /** The servers' data directory (the shop's database and the mail outbox, `mail/*.eml`). */
  dataDir: string;
  /** Stops both servers and removes their data directory. */
  teardown: () => Promise<void>;
}

/**
 * Starts the real hub and storefront-proxy on free ports with a fresh data directory,
 * serving this package's `dist/` (unless `webApp` is false: API tests). The binaries come from SALESROOM_BIN_DIR (relative
 * paths are taken from web/), by default ../target/debug. A spec that changes the demo
 * appointment for good (start, lock, end) starts its own pair with this. `env` adds
 * settings for both servers (e.g. LIVEKIT_*).
 *
 * `video: true` runs video as `make up` does: without LIVEKIT_URL in `env` the embedded
 * media server (`sfu`) starts first, on free ports and the same data directory, and the
 * hub and the proxy find it through the key file it writes there. Off by default (the room
 * then says that video is not configured): with a camera publishing in every room spec,
 * guide logins on a loaded 2-core machine outran their 5 s waits (issue #13).
 *
 * `upstream: true` runs the live room on an "upstream Shopware": a second storefront-proxy,
 * embedded with the demo and a hub of its own (another secret, another data directory),
 * stands in for Shopware, and the proxy the browsers use forwards to it with UPSTREAM_URL;
 * `origin` and `hubUrl` are the forwarding proxy's and its hub's. The stand-in's own shop
 * events go to the stand-in's hub, so whatever reaches the browsers' hub came through the
 * forwarding proxy.
 */
export async function startServers({
  webApp = true,
  env = {},
  video = false,
  upstream = false,
}: { webApp?: boolean; env?: Record<string, string>; video?: boolean; upstream?: boolean } = {}): Promise<Servers> {
  const webDist = path.join(WEB_DIR, 'dist');
  if (webApp && !existsSync(path.join(webDist, 'index.html'))) throw new Error(`${webDist} has no build: run npm run build first`);

  const embeddedVideo = video && !env.LIVEKIT_URL;
  // Every binary must exist before any starts, so a missing one leaves nothing running.
  const [hubBinary, proxyBinary] = [binary('hub'), binary('storefront-proxy')];
  const sfuBinary = embeddedVideo ? binary('sfu') : null;
  const [hubPort, proxyPort, sfuPort, sfuUdpPort, upstreamHubPort, upstreamPort] = (await freePorts(6)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const dataDir = await mkdtemp(path.join(tmpdir(), 'salesroom-e2e-'));
  const common = {
    ...env,
    BIND: '127.0.0.1',
    DATA_DIR: dataDir,
    HUB_SECRET: SECRET,
    HUB_PORT: String(hubPort),
    // The session report's reactions and cart values are in within a second, not 30.
    HUB_SESSION_SAMPLE_MS: '1000',
    SFU_PORT: String(sfuPort),
    SFU_UDP_PORT: String(sfuUdpPort),
  };
  const origin = `http://127.0.0.1:${proxyPort}`;
  const hubUrl = `http://127.0.0.1:${hubPort}`;
  const servers: Spawned[] = [];
  const teardown = async () => {
    await Promise.all(servers.map(stop));
    await rm(dataDir, { recursive: true, force: true });
  };

  // The stand-in for Shopware first: the forwarding proxy answers nothing without it.
  let upstreamEnv: Record<string, string> = {};
  if (upstream) {
    const upstreamOrigin = `http://127.0.0.1:${upstreamPort}`;
    const upstreamHubUrl = `http://127.0.0.1:${upstreamHubPort}`;
    const standIn = {
      ...env,
      BIND: '127.0.0.1',
      DATA_DIR: path.join(dataDir, 'upstream'),
      HUB_SECRET: `${SECRET}-upstream`,
      HUB_PORT: String(upstreamHubPort),
    };
    servers.push(
      start('upstream hub', hubBinary, standIn),
      start('upstream storefront-proxy', proxyBinary, {
        ...standIn,
        PORT: String(upstreamPort),
        HUB_URL: upstreamHubUrl,
        SHOP_ENDPOINT: upstreamOrigin,
        SHOP_ACCESS_TOKEN: 'SWSCSALESROOMDEMO000000000',
        WEB_DIST: path.join(dataDir, 'upstream', 'no-web-app'),
      }),
    );
    try {
      await waitUntilHealthy(`${upstreamHubUrl}/healthz`, servers);
      await waitUntilHealthy(`${upstreamOrigin}/healthz`, servers);
    } catch (error) {
      await teardown();
      throw error;
    }
    upstreamEnv = { UPSTREAM_URL: upstreamOrigin, DATA_DIR: path.join(dataDir, 'forwarding') };
  }

  // As `make up`: the sfu first, so that its key file is there when the hub and proxy start.
  if (sfuBinary) {
    servers.push(start('sfu', sfuBinary, { ...common, RUST_LOG: process.env.RUST_LOG ?? 'sfu=info' }));
    try {
      await waitUntilHealthy(`http://127.0.0.1:${sfuPort}/`, servers);
    } catch (error) {
      await teardown();
      throw error;
    }
  }
  servers.push(
    start('hub', hubBinary, common),
    start('storefront-proxy', proxyBinary, {
      ...common,
      PORT: String(proxyPort),
      HUB_URL: hubUrl,
      SHOP_ENDPOINT: origin,
      SHOP_ACCESS_TOKEN: 'SWSCSALESROOMDEMO000000000',
      WEB_DIST: webDist,
      ...upstreamEnv,
    }),
  );

  try {
    await waitUntilHealthy(`${hubUrl}/healthz`, servers);
    await waitUntilHealthy(`${origin}/healthz`, servers);
  } catch (error) {
    await teardown();
    throw error;
  }
  return { origin, hubUrl, sfuUrl: sfuBinary ? `ws://127.0.0.1:${sfuPort}` : null, dataDir, teardown };
}

/** Starts the servers every spec shares and sets SALESROOM_BASE_URL and SALESROOM_HUB_URL; returns the teardown. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const { origin, hubUrl, teardown } = await startServers();
  process.env.SALESROOM_BASE_URL = origin;
  process.env.SALESROOM_HUB_URL = hubUrl;
  return teardown;
}
