import WebSocket from 'ws';
import { waitFor } from './wait';

export type RealtimeEvent = Record<string, unknown> & { type: string };

/** A refused handshake: the HTTP status and body the gateway answered instead of upgrading. */
export interface Refusal {
  status: number;
  body: { error?: { code?: string; message?: string; type?: string } };
}

/** A Realtime API client on a real WebSocket, keeping every event it received in order. */
export class RealtimeTestClient {
  readonly events: RealtimeEvent[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => this.events.push(JSON.parse(data.toString()) as RealtimeEvent));
    this.closed = new Promise((resolve) => {
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
  }

  /** Opens a session at `url`; answers the refusal when the gateway answers HTTP instead. */
  static open(
    url: string,
    options: { headers?: Record<string, string>; protocols?: string[] } = {},
  ): Promise<RealtimeTestClient | Refusal> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers });
      const client = new RealtimeTestClient(socket);
      socket.once('open', () => resolve(client));
      socket.once('unexpected-response', (_request, response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : {} });
          socket.terminate();
        });
      });
      socket.once('error', (error) => reject(error));
    });
  }

  /** Opens a session that must be accepted. */
  static async accepted(
    url: string,
    options: { headers?: Record<string, string>; protocols?: string[] } = {},
  ): Promise<RealtimeTestClient> {
    const opened = await RealtimeTestClient.open(url, options);
    if (!(opened instanceof RealtimeTestClient)) {
      throw new Error(`refused ${opened.status}: ${JSON.stringify(opened.body)}`);
    }
    return opened;
  }

  send(event: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(event));
  }

  /** The `count`-th event of `type` received (1 = the first), once it has arrived. */
  nth(type: string, count = 1, timeoutMs = 10_000): Promise<RealtimeEvent> {
    return waitFor(() => this.events.filter((event) => event.type === type)[count - 1], {
      what: `${type} #${count}`,
      intervalMs: 5,
      timeoutMs,
    });
  }

  /** The types received so far, in order. */
  types(): string[] {
    return this.events.map((event) => event.type);
  }
}
