import net from 'node:net';

interface Link {
  client: net.Socket;
  upstream: net.Socket;
}

/**
 * A TCP proxy of the test's own between the server and its database or Redis: `cut` drops every
 * connection and refuses new ones, as a database that restarts or a network that fails; `blackHole`
 * keeps every connection open and takes new ones, but nothing passes either way, as a partition
 * (bytes sent meanwhile arrive once it ends, as TCP retransmits them); `restore` ends either.
 * `holdReplies` keeps what the target answers on the connections open now until released.
 */
export class TcpProxy {
  #server: net.Server | undefined;
  readonly #links = new Set<Link>();
  #blackHoled = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<this> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      const link = { client, upstream };
      this.#links.add(link);
      for (const socket of [client, upstream]) {
        socket.on('close', () => this.#links.delete(link));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      if (this.#blackHoled) {
        client.pause();
        upstream.pause();
      } else connectLink(link);
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.#server = server;
    this.port = (server.address() as net.AddressInfo).port;
    return this;
  }

  /** Drops every open connection and stops listening: new connections are refused. */
  async cut(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    const closed = server ? new Promise((resolve) => server.close(resolve)) : Promise.resolve();
    for (const { client, upstream } of this.#links) {
      client.destroy();
      upstream.destroy();
    }
    this.#links.clear();
    await closed;
  }

  /** Nothing passes any more, and nothing is closed: callers wait for answers that do not come. */
  blackHole(): void {
    this.#blackHoled = true;
    for (const { client, upstream } of this.#links) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
  }

  /**
   * Holds what the target sends on the connections open now (not on later ones), as a network slow
   * one way: `answered` resolves once some of it arrived; `release` passes it on, and what follows.
   */
  holdReplies(): { answered: Promise<void>; release: () => void } {
    let answered!: () => void;
    const arrived = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const held = [...this.#links].map((link) => {
      const chunks: Buffer[] = [];
      const keep = (chunk: Buffer) => {
        chunks.push(chunk);
        answered();
      };
      link.upstream.unpipe(link.client);
      link.upstream.on('data', keep);
      link.upstream.resume();
      return { link, chunks, keep };
    });
    const release = () => {
      for (const { link, chunks, keep } of held) {
        link.upstream.off('data', keep);
        for (const chunk of chunks) link.client.write(chunk);
        link.upstream.pipe(link.client);
      }
    };
    return { answered: arrived, release };
  }

  /** Ends a cut (listens again) or a black hole (what waited passes, and whatever follows). */
  async restore(): Promise<void> {
    if (this.#blackHoled) {
      this.#blackHoled = false;
      for (const link of this.#links) connectLink(link);
    }
    if (!this.#server) await this.start(this.port);
  }

  async close(): Promise<void> {
    await this.cut();
  }
}

function connectLink({ client, upstream }: Link): void {
  client.pipe(upstream);
  upstream.pipe(client);
}
