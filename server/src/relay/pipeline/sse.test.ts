import { describe, expect, it } from 'vitest';
import { SseParser } from './sse';

const MB = 1024 * 1024;

describe('SseParser', () => {
  it('reads a long event sent in small chunks in linear time', () => {
    /**
     * This thread's CPU time (µs) to read one event of `size` bytes sent in 16 KiB chunks: the
     * thread's own, so that other processes on the machine do not count; the least of three.
     */
    const read = (size: number) => {
      const once = () => {
        const parser = new SseParser(64 * MB);
        const piece = Buffer.alloc(16 * 1024, 'x');
        const started = process.threadCpuUsage();
        expect(parser.push(Buffer.from('data: '))).toEqual([]);
        for (let sent = 0; sent < size; sent += piece.length) expect(parser.push(piece)).toEqual([]);
        const [event] = parser.push(Buffer.from('\n\n'));
        expect(event?.data.length).toBe(size);
        const { user, system } = process.threadCpuUsage(started);
        return user + system;
      };
      return Math.min(once(), once(), once());
    };
    // Four times the bytes take about four times as long; rescanning the pending line at every chunk
    // (tens of seconds here) took sixteen. A ratio, so that a slower machine slows both alike.
    const small = read(10 * MB);
    const large = read(40 * MB);
    expect(large / small).toBeLessThan(9);
  });

  it('refuses an event that grows beyond its limit, in one line or in many', () => {
    const line = new SseParser(1024);
    expect(() => line.push(Buffer.alloc(2048, 'x'))).toThrow(
      expect.objectContaining({ code: 'upstream_answer_too_large' }),
    );
    const lines = new SseParser(1024);
    expect(() => {
      for (let i = 0; i < 100; i++) lines.push(Buffer.from(`data: ${'y'.repeat(100)}\n`));
    }).toThrow(expect.objectContaining({ code: 'upstream_answer_too_large' }));
    const events = new SseParser(1024);
    for (let i = 0; i < 100; i++)
      expect(events.push(Buffer.from(`data: ${'z'.repeat(100)}\n\n`))).toHaveLength(1);
  });

  it('reads every line ending the format allows (LF, CRLF, CR) and an event left without its blank line', () => {
    const parser = new SseParser();
    const text = 'event: a\ndata: 1\n\ndata: 2\r\ndata: 2b\r\n\r\ndata: 3\r\r: comment\n\ndata: 4';
    expect([...parser.push(Buffer.from(text)), ...parser.end()]).toEqual([
      { event: 'a', data: '1' },
      { event: undefined, data: '2\n2b' },
      { event: undefined, data: '3' },
      { event: undefined, data: '4' },
    ]);
  });

  it('is between events only when what it was fed ends with a blank line', () => {
    const parser = new SseParser();
    expect(parser.between()).toBe(true);
    parser.push(Buffer.from('data: {"a":'));
    expect(parser.between()).toBe(false);
    parser.push(Buffer.from('1}\n'));
    expect(parser.between()).toBe(false);
    expect(parser.push(Buffer.from('\n'))).toEqual([{ event: undefined, data: '{"a":1}' }]);
    expect(parser.between()).toBe(true);
    parser.push(Buffer.from('data: b\r\n\r'));
    expect(parser.between()).toBe(false);
    parser.push(Buffer.from('\n'));
    expect(parser.between()).toBe(true);
  });
});
