import type { ClientFrame, ServerFrame } from '@/protocol/generated';
import type { SocketFactory, SocketLike } from './client';

/** A WebSocket stand-in that a test drives from the hub's side. */
export class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  readonly sent: ClientFrame[] = [];
  closedByClient = false;

  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data) as ClientFrame);
  }

  close(): void {
    this.closedByClient = true;
  }

  open(): void {
    this.onopen?.(new Event('open'));
  }

  receive(frame: ServerFrame): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(frame) }));
  }

  /** The hub closes the connection. */
  drop(code = 1006): void {
    // Node has no CloseEvent; the client reads only `code`.
    this.onclose?.({ code } as CloseEvent);
  }
}

/** A socket factory that remembers every socket it made. */
export function fakeSockets(): { factory: SocketFactory; sockets: FakeSocket[]; last: () => FakeSocket } {
  const sockets: FakeSocket[] = [];
  return {
    sockets,
    factory: (url, protocols) => {
      const socket = new FakeSocket(url, protocols);
      sockets.push(socket);
      return socket;
    },
    last: () => {
      const socket = sockets.at(-1);
      if (!socket) throw new Error('no socket was opened');
      return socket;
    },
  };
}
