import type http from 'node:http';
import type { FakeHandler } from './http-fake';

/** How much of an answer a fake managed to send before the gateway stopped reading. */
export interface Sending {
  sent: number;
  finished: boolean;
}

/** Sends `head` then `bytes` of `filler` (with backpressure), counting what the gateway took. */
export const floods =
  (
    sending: Sending,
    bytes: number,
    status: number,
    contentType: string,
    head: string,
    filler = 'x',
  ): FakeHandler =>
  async (_request, res: http.ServerResponse) => {
    sending.sent = 0;
    sending.finished = false;
    res.writeHead(status, { 'content-type': contentType });
    res.write(head);
    const piece = Buffer.alloc(64 * 1024, filler);
    while (sending.sent < bytes && !res.destroyed) {
      sending.sent += piece.length;
      if (!res.write(piece)) {
        // Whichever comes first; the other listener goes with it (they would pile up on the response).
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            res.off('close', done);
            resolve();
          };
          res.once('drain', done);
          res.once('close', done);
        });
      }
    }
    sending.finished = !res.destroyed;
    res.end();
  };
