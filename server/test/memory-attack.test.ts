import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAiHandler } from './fakes/openai';
import { builtServerRig } from './process/built-server-rig';
import { settledResidentBytes, watchPeak } from './process/memory';
import { audioForm, imageEditForm, Upload, upload } from './uploads';
import { waitUntil } from './wait';

const MB = 1024 * 1024;

describe('memory under a flood of big anonymous bodies (the built server, default limits)', () => {
  // The server's temporary files (spooled uploads) in a directory of this suite's own.
  const temporary = mkdtempSync(join(tmpdir(), 'switchyard-memory-'));
  const rig = builtServerRig({
    upstream: openAiHandler({ reply: 'heard you' }),
    customers: { listener: 100_000_000 },
    env: { TMPDIR: temporary },
  });
  afterAll(() => rmSync(temporary, { recursive: true, force: true }));

  /** Bytes in the server's spooled uploads (a directory removed while counted counts nothing). */
  const spooledBytes = () => {
    let total = 0;
    for (const name of readdirSync(temporary)) {
      if (!name.startsWith('switchyard-upload-')) continue;
      try {
        const dir = join(temporary, name);
        for (const file of readdirSync(dir)) total += statSync(join(dir, file)).size;
      } catch {
        // removed meanwhile: the call ended
      }
    }
    return total;
  };

  it('24 concurrent 60 MB posts without credentials: all refused, and the memory stays flat', async () => {
    const { server } = rig;
    const body = Buffer.alloc(60 * MB, 0x78);
    const json = { 'content-type': 'application/json' };
    const targets: Array<[path: string, headers: Record<string, string>]> = [
      ['/v1/chat/completions', json],
      ['/v1/chat/completions', { ...json, authorization: 'Bearer sk-not-a-key' }],
      ['/v1/audio/transcriptions', { 'content-type': 'multipart/form-data; boundary=x' }],
      ['/api/channel/', json],
      ['/api/user/login', json],
      ['/api/option/', json],
    ];
    // Warm: the routes and the database have been used once.
    for (const [path, headers] of targets)
      await upload(`${server.baseUrl}${path}`, headers, Buffer.from('{}'));
    const before = await settledResidentBytes(server.pid);

    const peak = watchPeak(server.pid);
    let growth = 0;
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        const [path, headers] = targets[i % targets.length]!;
        return upload(`${server.baseUrl}${path}`, headers, body).then(
          (answer) => ({ path, status: answer.status, text: answer.body, sent: answer.sentWhenAnswered }),
          (error: Error) => ({ path, status: 0, text: String(error), sent: body.length }),
        );
      }),
    ).finally(() => {
      growth = peak.stop() - before;
    });

    expect(growth, `resident memory grew by ${Math.round(growth / MB)} MB`).toBeLessThan(150 * MB);
    for (const { path, status, text, sent } of answers) {
      // The console API refuses on HTTP 200 with the envelope, as one-api does; the relay with 401/413;
      // an unknown route (POST /api/option/: options are PUT) with 404 from its headers.
      if (status === 200 && path.startsWith('/api/'))
        expect(JSON.parse(text), `${path}: ${text}`).toMatchObject({ success: false });
      else expect([401, 404, 413], `${path}: ${status} ${text}`).toContain(status);
      // Answered before the body was all sent: nobody waited to read it.
      expect(sent, path).toBeLessThan(body.length);
    }
  }, 120_000);

  it('an authenticated upload within RELAY_BODY_LIMIT (32 MB by default) is still relayed whole', async () => {
    const { server, fake } = rig;
    const form = audioForm(20 * MB);
    const answer = await upload(
      `${server.baseUrl}/v1/audio/transcriptions`,
      { authorization: `Bearer ${rig.key('listener')}`, 'content-type': form.contentType },
      form.body,
    );
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ text: 'heard you' });
    expect(fake.last().body.length).toBe(form.body.length);
  }, 60_000);

  it('an image edit of 28 MB is spooled to disk as it arrives, not held: memory grows less than holding it would', async () => {
    const { server, fake } = rig;
    const headers = (contentType: string) => ({
      authorization: `Bearer ${rig.key('listener')}`,
      'content-type': contentType,
    });
    // Warm: the route, the parser and the spool have been used once.
    const small = imageEditForm(1024);
    expect(
      (await upload(`${server.baseUrl}/v1/images/edits`, headers(small.contentType), small.body)).status,
    ).toBe(200);
    const form = imageEditForm(28 * MB);
    const before = await settledResidentBytes(server.pid);
    const peak = watchPeak(server.pid);
    let growth = 0;
    const call = new Upload(`${server.baseUrl}/v1/images/edits`, headers(form.contentType), form.body.length);
    try {
      // Most of it sent, then the client waits: what arrived is on disk already.
      const held = form.body.length - 4 * MB;
      await call.write(form.body.subarray(0, held));
      await waitUntil(() => spooledBytes() >= held - 2 * MB, { what: 'the upload written to the spool' });
      await call.write(form.body.subarray(held));
      call.end();
      const answer = await call.answer;
      expect(answer.status, answer.body).toBe(200);
    } finally {
      growth = peak.stop() - before;
      call.abort();
    }
    // The provider got the picture whole (re-encoded around it), and the spool is gone.
    expect(fake.last().raw.length).toBeGreaterThan(28 * MB);
    await waitUntil(() => spooledBytes() === 0, { what: 'the spool removed' });
    // Held whole, the body is in memory twice at its peak (its chunks, then joined): 56 MB and more.
    // Spooled, what grows is the chunks in passing that the collector has not freed yet.
    expect(growth, `resident memory grew by ${Math.round(growth / MB)} MB`).toBeLessThan(48 * MB);
  }, 60_000);
});
