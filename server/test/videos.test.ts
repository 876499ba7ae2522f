import { ChannelTypeId } from '@switchyard/contract/channel-types';
import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VideoFake, videoBytes } from './fakes/videos';
import { type Client, startTestApp, type TestApp } from './harness';
import { books, expectBalancedBooks } from './ledger-books';
import { type Customer, createChannel, createCustomer, openAiFor } from './relay-setup';
import { waitFor } from './wait';

const KEY = 'sk-video-channel-secret-0123456789';
// sora-2: $0.10 a second = ratio 50; 4 s × 50 × 1000.
const SORA_4S = 200_000;
// veo-3.0-generate-001: $0.40 a second = ratio 200; 8 s × 200 × 1000.
const VEO_8S = 1_600_000;
const FUNDS = 10_000_000;

describe('video generation jobs', () => {
  let t: TestApp;
  let root: Client;
  let fake: VideoFake;
  let customers = 0;

  beforeAll(async () => {
    fake = await new VideoFake(KEY).start();
    t = await startTestApp({ env: { VIDEO_POLL_INTERVAL: '3600' } });
    root = await t.root();
    await createChannel(root, { name: 'sora', base_url: fake.url, key: KEY, models: 'sora-2,sora-2-pro' });
    await createChannel(root, {
      name: 'veo',
      type: ChannelTypeId.gemini,
      base_url: fake.url,
      key: KEY,
      models: 'veo-3.0-generate-001,veo-3.0-fast-generate-001',
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const customer = () =>
    createCustomer(t, `video${++customers}`, { quota: FUNDS, token: { unlimited_quota: true } });

  /** The books balanced once every settlement and give-back is written and spare credit went back. */
  async function balanced(who: Customer) {
    await t.app.services.billing.settled();
    return expectBalancedBooks(t, { userId: who.userId, tokenId: who.token.id, userFunds: FUNDS });
  }

  /** The books once every settlement and give-back is written and spare credit went back. */
  async function settledBooks(who: Customer) {
    await t.app.services.billing.settled();
    return books(t, who.userId, who.token.id);
  }

  /** What the user's running jobs were charged: taken from the balance, neither held nor used yet. */
  async function chargedToJobs(who: Customer) {
    const now = await settledBooks(who);
    expect([now.held, now.tokenHeld]).toEqual([0, 0]);
    return FUNDS - now.quota - now.usedQuota;
  }

  it('create, poll, complete, download through the openai SDK: charged at creation, settled once', async () => {
    const who = await customer();
    const created = await who.openai.videos.create({
      model: 'sora-2',
      prompt: 'a red fox in snow',
      seconds: '4',
    });
    expect(created).toMatchObject({
      object: 'video',
      model: 'sora-2',
      status: 'queued',
      seconds: '4',
      size: '720x1280',
    });
    expect(created.id).toMatch(/^video_sy[0-9a-f]{32}$/);
    const upstream = fake.only();
    expect(created.id).not.toContain(upstream.id);
    expect(fake.calls('POST', '/v1/videos')[0]?.json).toEqual({
      model: 'sora-2',
      prompt: 'a red fox in snow',
      seconds: '4',
      size: '720x1280',
    });

    expect(await chargedToJobs(who)).toBe(SORA_4S);
    let now = await settledBooks(who);
    expect(now.logs).toBe(0);

    fake.set(upstream.id, { status: 'in_progress', progress: 40 });
    expect(await who.openai.videos.retrieve(created.id)).toMatchObject({
      status: 'in_progress',
      progress: 40,
    });

    fake.set(upstream.id, { status: 'completed', progress: 100 });
    expect(await who.openai.videos.retrieve(created.id)).toMatchObject({
      status: 'completed',
      progress: 100,
    });
    const content = await who.openai.videos.downloadContent(created.id);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await content.arrayBuffer()).equals(fake.content)).toBe(true);
    const thumbnail = await who.openai.videos.downloadContent(created.id, { variant: 'thumbnail' });
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');

    now = await balanced(who);
    expect(now.usedQuota).toBe(SORA_4S);
    expect(now.logs).toBe(1);
    const listed = await who.openai.videos.list();
    expect(listed.data.map((video) => video.id)).toEqual([created.id]);
    fake.jobs.clear();
  });

  it('billed once when many clients and the background poller see the job complete at once', async () => {
    const who = await customer();
    const created = await who.openai.videos.create({ model: 'sora-2', prompt: 'waves', seconds: '8' });
    fake.set(fake.only().id, { status: 'completed', progress: 100 });
    const polls = await Promise.all([
      ...Array.from({ length: 16 }, () => who.openai.videos.retrieve(created.id)),
      t.app.services.videoJobs.sweep(0).then(() => undefined),
      t.app.services.videoJobs.sweep(0).then(() => undefined),
    ]);
    for (const video of polls.filter((poll) => poll !== undefined)) expect(video.status).toBe('completed');
    const now = await balanced(who);
    expect(now.usedQuota).toBe(2 * SORA_4S);
    expect(now.logs).toBe(1);
    fake.jobs.clear();
  });

  it('a job nobody polls is charged by the background poller', async () => {
    const who = await customer();
    await who.openai.videos.create({ model: 'sora-2', prompt: 'rain', seconds: '4' });
    fake.set(fake.only().id, { status: 'completed', progress: 100 });
    await t.app.services.videoJobs.sweep(0);
    const now = await balanced(who);
    expect([now.usedQuota, now.logs]).toEqual([SORA_4S, 1]);
    fake.jobs.clear();
  });

  it('a failed job is refunded whole and logs nothing; its content is refused', async () => {
    const who = await customer();
    const created = await who.openai.videos.create({
      model: 'sora-2-pro',
      prompt: 'x',
      size: '1792x1024',
      seconds: '4',
    });
    expect(await chargedToJobs(who)).toBe(Math.ceil(150 * (5 / 3) * 4 * 1000));
    fake.set(fake.only().id, { status: 'failed', error: 'moderation blocked the prompt' });
    const seen = await who.openai.videos.retrieve(created.id);
    expect(seen.status).toBe('failed');
    expect(seen.error?.message).toBe('moderation blocked the prompt');
    const now = await balanced(who);
    expect([now.usedQuota, now.logs]).toEqual([0, 0]);
    const content = await fetch(`${t.baseUrl}/v1/videos/${created.id}/content`, {
      headers: { authorization: `Bearer sk-${who.token.key}` },
    });
    expect(content.status).toBe(409);
    fake.jobs.clear();
  });

  it('a job is the user’s: their other key reads it, another user’s key gets 404 as for none', async () => {
    const owner = await customer();
    const stranger = await customer();
    const created = await owner.openai.videos.create({ model: 'sora-2', prompt: 'mine' });
    const second = await owner.client.post<{ data: { key: string } }>('/api/token/', {
      name: 'second',
      unlimited_quota: true,
      expired_time: -1,
    });
    expect(second.status).toBe(200);
    const keys = await owner.client.get<{ data: Array<{ key: string; name: string }> }>('/api/token/?p=0');
    const otherKey = keys.body.data.find((token) => token.name === 'second')!.key;
    expect((await openAiFor(t, `sk-${otherKey}`).videos.retrieve(created.id)).id).toBe(created.id);

    for (const path of [
      `/v1/videos/${created.id}`,
      `/v1/videos/${created.id}/content`,
      '/v1/videos/video_nothing',
    ]) {
      const answer = await fetch(`${t.baseUrl}${path}`, {
        headers: { authorization: `Bearer sk-${stranger.token.key}` },
      });
      expect(answer.status, path).toBe(404);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('video_not_found');
    }
    expect((await stranger.openai.videos.list()).data).toEqual([]);
    fake.jobs.clear();
  });

  it('streams the video as it arrives, never waiting for the whole of it', async () => {
    const who = await customer();
    const created = await who.openai.videos.create({ model: 'sora-2', prompt: 'stream' });
    fake.set(fake.only().id, { status: 'completed', progress: 100 });
    fake.content = videoBytes(4 * 1024 * 1024);
    let release = () => {};
    fake.holdAfterFirstChunk = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      const answer = await fetch(`${t.baseUrl}/v1/videos/${created.id}/content`, {
        headers: { authorization: `Bearer sk-${who.token.key}` },
      });
      expect(answer.status).toBe(200);
      const reader = answer.body!.getReader();
      // The first chunk arrives while the provider still holds back the rest.
      const first = await reader.read();
      expect(first.value?.length).toBeGreaterThan(0);
      release();
      let received = first.value!.length;
      for (let next = await reader.read(); !next.done; next = await reader.read())
        received += next.value.length;
      expect(received).toBe(fake.content.length);
    } finally {
      release();
      fake.holdAfterFirstChunk = undefined;
      fake.content = videoBytes(256 * 1024);
      fake.jobs.clear();
    }
  });

  it('a multipart create passes input_reference through; bad input is a clear 400 with nothing held', async () => {
    const who = await customer();
    const image = await toFile(Buffer.from('PNG-bytes'), 'start.png', { type: 'image/png' });
    const created = await who.openai.videos.create({
      model: 'sora-2',
      prompt: 'from an image',
      input_reference: image,
    });
    expect(created.status).toBe('queued');
    const sent = fake.calls('POST', '/v1/videos').at(-1)!;
    expect(String(sent.headers['content-type'])).toMatch(/^multipart\/form-data/);
    expect(sent.body).toContain('PNG-bytes');
    expect(sent.body).toContain('filename="start.png"');

    const bad = [
      [{ model: 'sora-2' }, 'prompt'],
      [{ model: 'sora-2', prompt: 'x', seconds: '5' }, 'seconds'],
      [{ model: 'sora-2', prompt: 'x', size: '999x999' }, 'size'],
    ] as const;
    for (const [body, param] of bad) {
      const answer = await fetch(`${t.baseUrl}/v1/videos`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${who.token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { error: { param: string } }).error.param).toBe(param);
    }
    const broken = await fetch(`${t.baseUrl}/v1/videos`, {
      method: 'POST',
      headers: {
        authorization: `Bearer sk-${who.token.key}`,
        'content-type': 'multipart/form-data; boundary=x',
      },
      body: '--x\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nnever ends',
    });
    expect(broken.status).toBe(400);
    expect(await chargedToJobs(who)).toBe(SORA_4S);
    fake.jobs.clear();
  });

  it('an upstream refusal at creation holds nothing and leaves no job', async () => {
    const who = await customer();
    fake.refuseCreate = `bad prompt for key ${KEY}`;
    try {
      const answer = await fetch(`${t.baseUrl}/v1/videos`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${who.token.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sora-2', prompt: 'x' }),
      });
      expect(answer.status).toBe(400);
      expect(await answer.text()).not.toContain(KEY);
    } finally {
      fake.refuseCreate = undefined;
    }
    await balanced(who);
    expect((await who.openai.videos.list()).data).toEqual([]);
  });

  it('a provider that answers garbage or reports more than was asked charges nothing extra', async () => {
    const who = await customer();
    const created = await who.openai.videos.create({ model: 'sora-2', prompt: 'odd', seconds: '4' });
    fake.garbled = true;
    try {
      expect((await who.openai.videos.retrieve(created.id)).status).toBe('queued');
    } finally {
      fake.garbled = false;
    }
    fake.set(fake.only().id, { status: 'completed', seconds: '99999' });
    expect(await who.openai.videos.retrieve(created.id)).toMatchObject({ status: 'completed', seconds: '4' });
    fake.jobs.clear();

    const shorter = await who.openai.videos.create({ model: 'sora-2', prompt: 'short', seconds: '8' });
    fake.set(fake.only().id, { status: 'completed', seconds: '4' });
    expect((await who.openai.videos.retrieve(shorter.id)).seconds).toBe('4');
    const now = await balanced(who);
    // The first at its held price; the second scaled to the 4 s the provider made of the 8 asked for.
    expect([now.usedQuota, now.logs]).toEqual([2 * SORA_4S, 2]);
    fake.jobs.clear();
  });

  it('a creation counts against the key’s requests per minute; polls do not', async () => {
    const who = await createCustomer(t, `video${++customers}`, {
      quota: FUNDS,
      token: { unlimited_quota: true, rpm_limit: 1 },
    });
    const created = await who.openai.videos.create({ model: 'sora-2', prompt: 'first' });
    expect((await who.openai.videos.retrieve(created.id)).status).toBe('queued');
    const second = await fetch(`${t.baseUrl}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${who.token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sora-2', prompt: 'second' }),
    });
    expect(second.status).toBe(429);
    expect(((await second.json()) as { error: { code: string } }).error.code).toBe(
      'requests_per_minute_exceeded',
    );
    expect(fake.jobs.size).toBe(1);
    expect(await chargedToJobs(who)).toBe(SORA_4S);
    fake.jobs.clear();
  });

  it('a job whose upstream vanished expires with a refund', async () => {
    const who = await customer();
    const created = await who.openai.videos.create({ model: 'sora-2', prompt: 'gone' });
    fake.jobs.clear();
    const seen = await who.openai.videos.retrieve(created.id);
    expect(seen.status).toBe('failed');
    expect(seen.error?.code).toBe('video_expired');
    const now = await balanced(who);
    expect([now.usedQuota, now.logs]).toEqual([0, 0]);
  });

  it('Veo on a Gemini channel: predictLongRunning, the operation polled, the video downloaded with the key kept', async () => {
    const who = await customer();
    const googleHeaders = { 'x-goog-api-key': `sk-${who.token.key}`, 'content-type': 'application/json' };
    const started = await fetch(`${t.baseUrl}/v1beta/models/veo-3.0-generate-001:predictLongRunning`, {
      method: 'POST',
      headers: googleHeaders,
      body: JSON.stringify({
        instances: [{ prompt: 'a lighthouse at dusk' }],
        parameters: { aspectRatio: '16:9', durationSeconds: 8, negativePrompt: 'people' },
      }),
    });
    expect(started.status).toBe(200);
    const operation = (await started.json()) as { name: string; done?: boolean };
    expect(operation.name).toMatch(/^models\/veo-3\.0-generate-001\/operations\/video_sy[0-9a-f]{32}$/);
    const upstream = fake.only();
    expect(fake.calls('POST', '/v1beta/models/veo-3.0-generate-001:predictLongRunning')[0]?.json).toEqual({
      instances: [{ prompt: 'a lighthouse at dusk' }],
      parameters: { aspectRatio: '16:9', durationSeconds: 8, negativePrompt: 'people' },
    });
    expect(await chargedToJobs(who)).toBe(VEO_8S);

    const poll = async () => {
      const answer = await fetch(`${t.baseUrl}/v1beta/${operation.name}`, { headers: googleHeaders });
      expect(answer.status).toBe(200);
      const text = await answer.text();
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(upstream.id);
      return JSON.parse(text) as {
        done?: boolean;
        response?: { generateVideoResponse: { generatedSamples: Array<{ video: { uri: string } }> } };
      };
    };
    expect((await poll()).done).toBe(false);
    fake.set(upstream.id, { status: 'completed' });
    const done = await poll();
    expect(done.done).toBe(true);
    const uri = done.response!.generateVideoResponse.generatedSamples[0]!.video.uri;
    expect(uri.startsWith(`${t.baseUrl}/v1beta/files/`)).toBe(true);
    const video = await fetch(uri, { headers: googleHeaders });
    expect(video.status).toBe(200);
    expect(Buffer.from(await video.arrayBuffer()).equals(fake.content)).toBe(true);
    expect(fake.calls('GET', '/v1beta/files/op')[0]?.headers['x-goog-api-key']).toBe(KEY);
    const stranger = await customer();
    const refused = await fetch(uri, { headers: { 'x-goog-api-key': `sk-${stranger.token.key}` } });
    expect(refused.status).toBe(404);
    const peeked = await fetch(`${t.baseUrl}/v1beta/${operation.name}`, {
      headers: { 'x-goog-api-key': `sk-${stranger.token.key}` },
    });
    expect(peeked.status).toBe(404);
    for (const body of [
      { instances: [{ prompt: 'two' }], parameters: { sampleCount: 2 } },
      { instances: [{ prompt: 'long' }], parameters: { durationSeconds: 30 } },
      { instances: [] },
      '{"instances": [',
    ]) {
      const bad = await fetch(`${t.baseUrl}/v1beta/models/veo-3.0-generate-001:predictLongRunning`, {
        method: 'POST',
        headers: { 'x-goog-api-key': `sk-${stranger.token.key}`, 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { status: string } }).error.status).toBe('INVALID_ARGUMENT');
    }
    expect(await chargedToJobs(stranger)).toBe(0);

    const now = await balanced(who);
    expect([now.usedQuota, now.logs]).toEqual([VEO_8S, 1]);
    fake.jobs.clear();
  });

  it('Veo through the OpenAI-shaped /v1/videos when the model routes to a Gemini channel', async () => {
    const who = await customer();
    const created = await who.openai.videos.create({
      model: 'veo-3.0-fast-generate-001',
      prompt: 'clouds',
      seconds: '8' as '4',
      size: '1280x720',
    });
    expect(created).toMatchObject({ model: 'veo-3.0-fast-generate-001', seconds: '8', size: '1280x720' });
    const upstream = fake.only();
    expect(
      fake.calls('POST', '/v1beta/models/veo-3.0-fast-generate-001:predictLongRunning')[0]?.json,
    ).toEqual({
      instances: [{ prompt: 'clouds' }],
      parameters: { durationSeconds: 8, aspectRatio: '16:9', resolution: '720p' },
    });
    fake.set(upstream.id, { status: 'failed', error: 'unsafe' });
    expect((await who.openai.videos.retrieve(created.id)).status).toBe('failed');
    fake.set(upstream.id, { status: 'completed' });
    // Refunded once: a later answer of the provider changes nothing.
    expect((await who.openai.videos.retrieve(created.id)).status).toBe('failed');
    let now = await balanced(who);
    expect([now.usedQuota, now.logs]).toEqual([0, 0]);
    fake.jobs.clear();

    const second = await who.openai.videos.create({
      model: 'veo-3.0-fast-generate-001',
      prompt: 'sun',
      seconds: '4' as '4',
    });
    fake.set(fake.only().id, { status: 'completed' });
    expect((await who.openai.videos.retrieve(second.id)).status).toBe('completed');
    const video = await who.openai.videos.downloadContent(second.id);
    expect(Buffer.from(await video.arrayBuffer()).equals(fake.content)).toBe(true);
    const thumbnail = await fetch(`${t.baseUrl}/v1/videos/${second.id}/content?variant=thumbnail`, {
      headers: { authorization: `Bearer sk-${who.token.key}` },
    });
    expect(thumbnail.status).toBe(404);
    now = await balanced(who);
    // veo-3.0-fast-generate-001: $0.15 a second = ratio 75; 4 s.
    expect([now.usedQuota, now.logs]).toEqual([4 * 75 * 1000, 1]);
    fake.jobs.clear();
  });

  it('the console lists a user’s own jobs, and every job with its user for administrators', async () => {
    const who = await customer();
    await who.openai.videos.create({ model: 'sora-2', prompt: 'listed' });
    const own = await who.client.get<{ data: Array<{ model: string; username?: string }> }>(
      '/api/video/self',
    );
    expect(own.body.data).toHaveLength(1);
    expect(own.body.data[0]).toMatchObject({ model: 'sora-2', status: 'queued', quota: SORA_4S });
    expect(own.body.data[0]?.username).toBeUndefined();
    const all = await root.get<{ data: Array<{ username?: string }> }>('/api/video/');
    expect(all.body.data.length).toBeGreaterThan(1);
    expect(all.body.data.map((job) => job.username)).toContain(`video${customers}`);
    expect((await who.client.get('/api/video/')).body.success).toBe(false);
    fake.jobs.clear();
  });
});

describe('video jobs that take too long', () => {
  it('expire after VIDEO_JOB_TIMEOUT with a refund, found by the background poller', async () => {
    const fake = await new VideoFake(KEY).start();
    const t = await startTestApp({ env: { VIDEO_POLL_INTERVAL: '1', VIDEO_JOB_TIMEOUT: '2' } });
    try {
      const root = await t.root();
      await createChannel(root, { base_url: fake.url, key: KEY, models: 'sora-2' });
      const who = await createCustomer(t, 'slow', { quota: FUNDS, token: { unlimited_quota: true } });
      const created = await who.openai.videos.create({ model: 'sora-2', prompt: 'slow' });
      fake.set(fake.only().id, { status: 'in_progress', progress: 10 });
      const expired = await waitFor(
        async () => {
          const row = await t.db.kysely
            .selectFrom('video_jobs')
            .selectAll()
            .where('id', '=', created.id)
            .executeTakeFirstOrThrow();
          return row.status === 'expired' ? row : undefined;
        },
        { what: 'the job to expire', timeoutMs: 15_000, intervalMs: 200 },
      );
      expect([expired.billing, Number(expired.quota)]).toEqual(['refunded', 0]);
      await t.app.services.billing.settled();
      const now = await expectBalancedBooks(t, {
        userId: who.userId,
        tokenId: who.token.id,
        userFunds: FUNDS,
      });
      expect([now.usedQuota, now.logs]).toEqual([0, 0]);
      // The provider finishing later changes nothing.
      fake.set(fake.only().id, { status: 'completed' });
      expect((await who.openai.videos.retrieve(created.id)).error?.code).toBe('video_expired');
    } finally {
      await t.close();
      await fake.close();
    }
  });
});
