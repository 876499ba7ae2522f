import { describe, expect, it } from 'vitest';
import { chunkFrame } from '../../../../test/fakes/bedrock';
import { eventStreamAsSse } from './event-stream';

/**
 * Reads `frame` sent in pieces of `size` bytes; answers the SSE text and the milliseconds of this
 * thread's CPU it took (other processes on the machine do not count), the least of three reads.
 */
async function read(frame: Uint8Array, size: number): Promise<{ out: string; ms: number }> {
  async function* inPieces() {
    for (let at = 0; at < frame.length; at += size) yield frame.subarray(at, at + size);
  }
  let out = '';
  let ms = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const started = process.threadCpuUsage();
    out = '';
    for await (const piece of eventStreamAsSse(inPieces())) out += Buffer.from(piece).toString();
    const { user, system } = process.threadCpuUsage(started);
    ms = Math.min(ms, (user + system) / 1000);
  }
  return { out, ms };
}

describe('eventStreamAsSse', () => {
  it('reads a large frame sent in small chunks about as fast as in one piece', async () => {
    const text = 'x'.repeat(10 * 1024 * 1024);
    const frame = chunkFrame({ type: 'content_block_delta', delta: { type: 'text_delta', text } });
    const whole = await read(frame, frame.length);
    const pieces = await read(frame, 8 * 1024);
    expect(pieces.out).toBe(whole.out);
    expect(pieces.out).toContain(text);
    // Joining the pending bytes at every chunk copied gigabytes: about 10 times slower.
    expect(pieces.ms).toBeLessThan(whole.ms * 3 + 200);
  });
});
