import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The embedded media server for video specs: started per spec, with a known key pair. */

const WEB_DIR = path.resolve(import.meta.dirname, '..');
export const API_KEY = 'APIe2e';
export const API_SECRET = 'e2e-secret-e2e-secret-e2e-secret-e2e';

/** A running `sfu` process. */
export interface Sfu {
  /** Its signalling URL, as `LIVEKIT_URL`. */
  url: string;
  child: ChildProcess;
  output: string[];
  dataDir: string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `target/debug/sfu` (or SALESROOM_BIN_DIR's) on free ports with a fresh data directory. */
export async function startSfu(): Promise<Sfu> {
  const binary = path.resolve(WEB_DIR, process.env.SALESROOM_BIN_DIR || '../target/debug', 'sfu');
  if (!existsSync(binary)) throw new Error(`${binary} does not exist: build it (cargo build -p sfu) or set SALESROOM_BIN_DIR`);
  const [port, udpPort] = [await freePort(), await freePort()];
  const dataDir = await mkdtemp(path.join(tmpdir(), 'salesroom-sfu-'));
  const child = spawn(binary, [], {
    env: {
      ...process.env,
      SFU_PORT: String(port),
      SFU_UDP_PORT: String(udpPort),
      BIND: '127.0.0.1',
      DATA_DIR: dataDir,
      LIVEKIT_API_KEY: API_KEY,
      LIVEKIT_API_SECRET: API_SECRET,
      RUST_LOG: process.env.RUST_LOG ?? 'sfu=debug',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`sfu exited with ${child.exitCode}:\n${output.join('')}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`sfu did not start:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `ws://127.0.0.1:${port}`, child, output, dataDir };
}

export async function stopSfu(sfu: Sfu): Promise<void> {
  if (sfu.child.exitCode === null) {
    const exited = new Promise((resolve) => sfu.child.once('exit', resolve));
    sfu.child.kill('SIGTERM');
    await exited;
  }
  await rm(sfu.dataDir, { recursive: true, force: true });
}
