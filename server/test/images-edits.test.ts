import { resolveImageInputRatio } from '@switchyard/contract/image-input-ratios';
import { parseLogFacts } from '@switchyard/contract/log-facts';
import { resolveModelRatio } from '@switchyard/contract/model-ratios';
import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake } from './fakes/http-fake';
import { openAiError } from './fakes/openai';
import { type GptImageUsage, openAiImagesHandler, type ReceivedForm, sha256 } from './fakes/openai-images';
import { type Client, startTestApp, type TestApp } from './harness';
import { expectedQuota, expectRefunded, spentBy } from './providers/quota-check';
import { balances, type Customer, consumeLogs, createChannel, createCustomer } from './relay-setup';
import { Upload } from './uploads';

const MB = 1024 * 1024;
const MODELS = 'dall-e-2,dall-e-3,gpt-image-1';
const USAGE: GptImageUsage = { textTokens: 20, imageTokens: 323, outputTokens: 4160 };

/** Distinct bytes for each picture, every byte value included, so a changed byte changes the hash. */
const picture = (seed: number, size = 4096): Buffer =>
  Buffer.from(Array.from({ length: size }, (_, index) => (index * 31 + seed * 17) % 256));

/** A DALL·E picture's price: ratio × the size's multiplier × 1000 quota, per picture. */
const perPicture = (model: string, sizeRatio: number, n: number) =>
  Math.floor(resolveModelRatio(model) * sizeRatio * 1000) * n;

/** gpt-image-1's price from its usage: text at the model ratio, image input at its own, output at the completion ratio. */
const gptImageQuota = (usage: GptImageUsage) => {
  const imagesAsText = Math.round(usage.imageTokens * (resolveImageInputRatio('gpt-image-1') - 1));
  return expectedQuota('gpt-image-1', 1, {
    prompt: usage.textTokens + usage.imageTokens + imagesAsText,
    completion: usage.outputTokens,
  });
};

describe('/v1/images/edits and /v1/images/variations: multipart uploads relayed and billed', () => {
  let t: TestApp;
  let root: Client;
  let fake: HttpFake;
  let forms: ReceivedForm[];
  let customer: Customer;

  beforeAll(async () => {
    forms = [];
    fake = await new HttpFake(openAiImagesHandler(forms)).start();
    t = await startTestApp({ env: { RELAY_BODY_LIMIT: '1', REQUEST_BODY_IDLE_TIMEOUT: '1' } });
    root = await t.root();
    customer = await createCustomer(t, 'painter', { quota: 100_000_000 });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const onlyChannel = async (spec: { type?: number; other?: string; models?: string } = {}) => {
    fake.use(openAiImagesHandler(forms));
    await t.db.kysely.deleteFrom('abilities').execute();
    await t.db.kysely.deleteFrom('channels').execute();
    t.app.services.router.invalidate();
    const type = spec.type ?? 1;
    return createChannel(root, {
      type,
      base_url: fake.url,
      key: `key-${type}`,
      models: spec.models ?? MODELS,
      ...(spec.other ? { other: spec.other } : {}),
    });
  };

  const post = (path: string, body: FormData | string, headers: Record<string, string> = {}) =>
    fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${customer.token.key}`, ...headers },
      body,
    });

  const formOf = (fields: Record<string, string>, files: Array<[string, Buffer, string]>) => {
    const form = new FormData();
    for (const [name, bytes, filename] of files)
      form.append(name, new Blob([bytes], { type: 'image/png' }), filename);
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return form;
  };

  const lastForm = () => {
    const form = forms.at(-1);
    if (!form) throw new Error('the fake read no form');
    return form;
  };
  const fieldsOf = (form: ReceivedForm) => Object.fromEntries(form.fields);

  it('an edit of one picture (dall-e-2): the upload arrives intact, billed per picture and size', async () => {
    const channelId = await onlyChannel();
    const image = picture(1);
    const fields = { prompt: 'a red hat', n: '2', size: '512x512', response_format: 'url', user: 'u-1' };
    const { quota, tokenQuota, log } = await spentBy(t, customer, async () => {
      const answer = await post('/v1/images/edits', formOf(fields, [['image', image, 'cat.png']]));
      expect(answer.status, await answer.clone().text()).toBe(200);
      const body = (await answer.json()) as { data: Array<{ url: string }> };
      expect(body.data).toHaveLength(2);
      expect(body.data[0]?.url).toMatch(/^https:\/\/images\.example\.com\//);
    });
    expect(fake.last()).toMatchObject({
      url: '/v1/images/edits',
      headers: { authorization: 'Bearer key-1' },
    });
    const form = lastForm();
    expect(form.files).toEqual([
      {
        field: 'image',
        filename: 'cat.png',
        contentType: 'image/png',
        size: image.length,
        sha256: sha256(image),
      },
    ]);
    expect(fieldsOf(form)).toEqual(fields);
    const expected = perPicture('dall-e-2', 1.125, 2);
    expect(quota).toBe(expected);
    expect(tokenQuota).toBe(expected);
    expect(log).toMatchObject({ channel_id: channelId, model_name: 'dall-e-2', quota: expected });
    expect(parseLogFacts(log?.facts)).toMatchObject({
      kind: 'consume',
      images: { count: 2, size: '512x512' },
    });
  });

  it('no model in the form: dall-e-2, as OpenAI defaults, and 1024x1024 by default', async () => {
    await onlyChannel({ models: 'dall-e-2' });
    const { quota, log } = await spentBy(t, customer, async () => {
      const answer = await post(
        '/v1/images/edits',
        formOf({ prompt: 'x' }, [['image', picture(2), 'a.png']]),
      );
      expect(answer.status, await answer.clone().text()).toBe(200);
    });
    expect(log).toMatchObject({ model_name: 'dall-e-2', quota: perPicture('dall-e-2', 1.25, 1) });
    expect(quota).toBe(log?.quota);
    expect(fieldsOf(lastForm()).model).toBeUndefined();
  });

  it('several pictures and a mask (gpt-image-1): every file intact, billed from the usage it reports', async () => {
    const channelId = await onlyChannel();
    const images = [picture(3), picture(4, 9000), picture(5, 100)];
    const mask = picture(6, 2048);
    const fields = {
      model: 'gpt-image-1',
      prompt: 'put them in one room',
      quality: 'high',
      size: '1024x1024',
      background: 'transparent',
      input_fidelity: 'low',
      output_format: 'webp',
    };
    const files: Array<[string, Buffer, string]> = [
      ...images.map((bytes, index): [string, Buffer, string] => ['image[]', bytes, `in-${index}.png`]),
      ['mask', mask, 'mask.png'],
    ];
    const before = (await consumeLogs(t, customer.userId)).length;
    const { quota, log } = await spentBy(t, customer, async () => {
      const answer = await post('/v1/images/edits', formOf(fields, files));
      expect(answer.status, await answer.clone().text()).toBe(200);
      const body = (await answer.json()) as { data: Array<{ b64_json: string }>; usage: unknown };
      expect(body.data[0]?.b64_json).toBeTruthy();
      expect(body.usage).toMatchObject({ output_tokens: USAGE.outputTokens });
    });
    const form = lastForm();
    expect(form.files.map(({ field, sha256: hash, size }) => ({ field, hash, size }))).toEqual(
      files.map(([field, bytes]) => ({ field, hash: sha256(bytes), size: bytes.length })),
    );
    expect(fieldsOf(form)).toEqual(fields);
    const expected = gptImageQuota(USAGE);
    // (20 text + 323 image × 2 + 4160 output × 8) × 2.5
    expect(expected).toBe(84_865);
    expect(quota).toBe(expected);
    expect((await consumeLogs(t, customer.userId)).length).toBe(before + 1);
    expect(log).toMatchObject({
      channel_id: channelId,
      model_name: 'gpt-image-1',
      quota: expected,
      prompt_tokens: USAGE.textTokens + USAGE.imageTokens,
      completion_tokens: USAGE.outputTokens,
    });
    expect(parseLogFacts(log?.facts)).toMatchObject({
      kind: 'consume',
      completionRatio: 8,
      imageInputRatio: 2,
      parts: { imageInput: USAGE.imageTokens },
    });
  });

  it('gpt-image-1 holds its worst case: an account that cannot pay it is refused before the upstream', async () => {
    await onlyChannel();
    // The worst case of one high-quality 1024² picture from one input at low fidelity:
    // (6 prompt bytes + 1000 image tokens × 2 + 4160 output × 8) × 2.5 = 88,215.
    const poor = await createCustomer(t, 'poorpainter', { quota: 88_000 });
    const seen = forms.length;
    const answer = await fetch(`${t.baseUrl}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${poor.token.key}` },
      body: formOf({ model: 'gpt-image-1', prompt: 'sunset', quality: 'high', size: '1024x1024' }, [
        ['image', picture(7), 'a.png'],
      ]),
    });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toMatchObject({ error: { code: 'insufficient_user_quota' } });
    expect(forms.length).toBe(seen);
    // With what the worst case needs, the same call goes through and pays only what it used.
    await root.post('/api/topup', { user_id: poor.userId, quota: 300 });
    const { quota } = await spentBy(t, poor, async () => {
      const paid = await fetch(`${t.baseUrl}/v1/images/edits`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${poor.token.key}` },
        body: formOf({ model: 'gpt-image-1', prompt: 'sunset', quality: 'high', size: '1024x1024' }, [
          ['image', picture(7), 'a.png'],
        ]),
      });
      expect(paid.status, await paid.clone().text()).toBe(200);
    });
    expect(quota).toBe(gptImageQuota(USAGE));
  });

  it('gpt-image-1 answering without usage pays its hold: there is nothing else to bill by', async () => {
    await onlyChannel();
    fake.use(openAiImagesHandler(forms, { usage: null }));
    const { quota, log } = await spentBy(t, customer, async () => {
      const answer = await post(
        '/v1/images/edits',
        formOf({ model: 'gpt-image-1', prompt: 'sunset', quality: 'low', size: '1024x1024', n: '2' }, [
          ['image', picture(8), 'a.png'],
        ]),
      );
      expect(answer.status, await answer.clone().text()).toBe(200);
    });
    // (6 prompt bytes + 1000 image tokens × 2 + 2 × 272 output × 8) × 2.5
    expect(quota).toBe(Math.ceil((6 + 2000 + 2 * 272 * 8) * 2.5));
    expect(log?.quota).toBe(quota);
  });

  it('a mapped model is named upstream in the form, the files untouched; a form without one gets it', async () => {
    await onlyChannel();
    await t.db.kysely
      .updateTable('channels')
      .set({ model_mapping: JSON.stringify({ 'dall-e-2': 'dall-e-2-east' }) })
      .execute();
    t.app.services.router.invalidate();
    const image = picture(24);
    const asked: Array<Record<string, string>> = [
      { model: 'dall-e-2', prompt: 'mapped' },
      { prompt: 'mapped' },
    ];
    for (const fields of asked) {
      const { log } = await spentBy(t, customer, async () => {
        const answer = await post('/v1/images/edits', formOf(fields, [['image', image, 'm.png']]));
        expect(answer.status, await answer.clone().text()).toBe(200);
      });
      expect(fieldsOf(lastForm())).toEqual({ ...fields, model: 'dall-e-2-east' });
      expect(lastForm().files).toMatchObject([{ field: 'image', sha256: sha256(image), size: image.length }]);
      expect(log).toMatchObject({ model_name: 'dall-e-2', quota: perPicture('dall-e-2', 1.25, 1) });
    }
  });

  it('gpt-image-1 generations are billed from their usage too, held at their worst case', async () => {
    await onlyChannel();
    const { quota, log } = await spentBy(t, customer, async () => {
      const answer = await post(
        '/v1/images/generations',
        JSON.stringify({ model: 'gpt-image-1', prompt: 'a fox' }),
        {
          'content-type': 'application/json',
        },
      );
      expect(answer.status, await answer.clone().text()).toBe(200);
    });
    expect(quota).toBe(gptImageQuota(USAGE));
    expect(log).toMatchObject({ model_name: 'gpt-image-1', quota, completion_tokens: USAGE.outputTokens });
  });

  it('a model without a size table takes any size; the log keeps it cut to what its facts hold', async () => {
    await onlyChannel({ models: 'sd-edit' });
    const size = 'x'.repeat(200);
    const { quota, log } = await spentBy(t, customer, async () => {
      const answer = await post(
        '/v1/images/edits',
        formOf({ model: 'sd-edit', prompt: 'x', size }, [['image', picture(25), 'a.png']]),
      );
      expect(answer.status, await answer.clone().text()).toBe(200);
    });
    expect(quota).toBe(perPicture('sd-edit', 1, 1));
    expect(parseLogFacts(log?.facts)).toMatchObject({ images: { count: 1, size: size.slice(0, 32) } });
  });

  it('a variation (dall-e-2): one picture, b64_json, billed per picture and size', async () => {
    const channelId = await onlyChannel();
    const image = picture(9);
    const fields = { model: 'dall-e-2', n: '3', size: '256x256', response_format: 'b64_json' };
    const { quota, log } = await spentBy(t, customer, async () => {
      const answer = await post('/v1/images/variations', formOf(fields, [['image', image, 'v.png']]));
      expect(answer.status, await answer.clone().text()).toBe(200);
      const body = (await answer.json()) as { data: Array<{ b64_json: string }> };
      expect(body.data).toHaveLength(3);
      expect(body.data[0]?.b64_json).toBeTruthy();
    });
    expect(fake.last().url).toBe('/v1/images/variations');
    expect(lastForm().files[0]).toMatchObject({ field: 'image', sha256: sha256(image), size: image.length });
    expect(fieldsOf(lastForm())).toEqual(fields);
    const expected = perPicture('dall-e-2', 1, 3);
    expect(quota).toBe(expected);
    expect(log).toMatchObject({ channel_id: channelId, model_name: 'dall-e-2', quota: expected });
    expect(parseLogFacts(log?.facts)).toMatchObject({ images: { count: 3, size: '256x256' } });
  });

  it('the openai SDK: images.edit and images.createVariation', async () => {
    await onlyChannel();
    const image = picture(10);
    const { quota: editQuota } = await spentBy(t, customer, async () => {
      const edited = await customer.openai.images.edit({
        model: 'dall-e-2',
        image: await toFile(image, 'sdk.png', { type: 'image/png' }),
        mask: await toFile(picture(11), 'mask.png', { type: 'image/png' }),
        prompt: 'a lighthouse',
        size: '256x256',
      });
      expect(edited.data?.[0]?.url).toMatch(/^https:/);
    });
    expect(lastForm().files.map((file) => [file.field, file.sha256])).toEqual([
      ['image', sha256(image)],
      ['mask', sha256(picture(11))],
    ]);
    expect(editQuota).toBe(perPicture('dall-e-2', 1, 1));
    const { quota: variationQuota } = await spentBy(t, customer, async () => {
      const varied = await customer.openai.images.createVariation({
        image: await toFile(image, 'sdk.png', { type: 'image/png' }),
        n: 2,
        response_format: 'b64_json',
      });
      expect(varied.data).toHaveLength(2);
    });
    expect(variationQuota).toBe(perPicture('dall-e-2', 1.25, 2));
    const sdkUsage = await customer.openai.images.edit({
      model: 'gpt-image-1',
      image: [await toFile(picture(12), 'a.png'), await toFile(picture(13), 'b.png')],
      prompt: 'both',
    });
    expect(sdkUsage.usage?.output_tokens).toBe(USAGE.outputTokens);
    expect(lastForm().files.map((file) => file.field)).toEqual(['image[]', 'image[]']);
  });

  it('Azure: the deployment path with api-version and the api-key header', async () => {
    await onlyChannel({ type: 3, other: '2025-04-01-preview' });
    const { quota } = await spentBy(t, customer, async () => {
      const answer = await post(
        '/v1/images/edits',
        formOf({ model: 'gpt-image-1', prompt: 'azure' }, [['image', picture(14), 'z.png']]),
      );
      expect(answer.status, await answer.clone().text()).toBe(200);
    });
    const upstream = fake.last();
    expect(upstream.url).toBe('/openai/deployments/gpt-image-1/images/edits?api-version=2025-04-01-preview');
    expect(upstream.headers['api-key']).toBe('key-3');
    expect(upstream.headers.authorization).toBeUndefined();
    expect(quota).toBe(gptImageQuota(USAGE));
    await post('/v1/images/variations', formOf({}, [['image', picture(15), 'z.png']]));
    expect(fake.last().url).toBe(
      '/openai/deployments/dall-e-2/images/variations?api-version=2025-04-01-preview',
    );
  });

  it('an upstream error reaches the client in its words, and nothing is billed or logged', async () => {
    await onlyChannel();
    fake.use(
      openAiError(
        400,
        'Your request was rejected by the safety system.',
        'invalid_request_error',
        'moderation_blocked',
      ),
    );
    const { error, refunded, logged } = await expectRefunded(t, customer, async () => {
      const answer = await post(
        '/v1/images/edits',
        formOf({ prompt: 'x' }, [['image', picture(16), 'a.png']]),
      );
      throw Object.assign(new Error('refused'), { status: answer.status, body: await answer.json() });
    });
    expect(error).toMatchObject({
      status: 400,
      body: {
        error: {
          message: expect.stringMatching(/^Your request was rejected by the safety system\./),
          code: 'moderation_blocked',
        },
      },
    });
    expect(refunded).toBe(true);
    expect(logged).toBe(false);
  });

  it.each([
    ['an edit with no image', '/v1/images/edits', formOf({ prompt: 'x' }, []), 'image_missing'],
    [
      'a variation with no image',
      '/v1/images/variations',
      formOf({ model: 'dall-e-2' }, []),
      'image_missing',
    ],
    [
      'an edit with no prompt',
      '/v1/images/edits',
      formOf({}, [['image', picture(17), 'a.png']]),
      'prompt_missing',
    ],
    [
      'a variation of two pictures',
      '/v1/images/variations',
      formOf({}, [
        ['image[]', picture(18), 'a.png'],
        ['image[]', picture(19), 'b.png'],
      ]),
      'too_many_images',
    ],
    [
      'a size dall-e-2 does not make',
      '/v1/images/edits',
      formOf({ prompt: 'x', size: '1792x1024' }, [['image', picture(20), 'a.png']]),
      'size_not_supported',
    ],
    ['a JSON body', '/v1/images/edits', JSON.stringify({ prompt: 'x', image: 'a.png' }), 'invalid_multipart'],
  ])('%s: 400 %s, nothing sent upstream, nothing billed', async (_, path, body, code) => {
    await onlyChannel();
    const seen = fake.requests.length;
    const headers: Record<string, string> =
      typeof body === 'string' ? { 'content-type': 'application/json' } : {};
    const { error, refunded, logged } = await expectRefunded(t, customer, async () => {
      const answer = await post(path, body, headers);
      throw Object.assign(new Error('refused'), { status: answer.status, body: await answer.json() });
    });
    expect(error).toMatchObject({ status: 400, body: { error: { code, type: 'invalid_request_error' } } });
    expect(refunded && !logged).toBe(true);
    expect(fake.requests.length).toBe(seen);
  });

  it('a form cut off before its end: 400 invalid_multipart', async () => {
    await onlyChannel();
    const boundary = 'cut-form';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nPNG`;
    const answer = await post('/v1/images/edits', body, {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: { code: 'invalid_multipart' } });
  });

  it('a field over 64 KB or more parts than a form may hold: 400, never relayed cut short', async () => {
    await onlyChannel();
    const seen = fake.requests.length;
    const long = await post(
      '/v1/images/edits',
      formOf({ prompt: 'x'.repeat(70 * 1024) }, [['image', picture(30), 'a.png']]),
    );
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({ error: { code: 'invalid_multipart' } });
    const files = Array.from({ length: 40 }, (_, i): [string, Buffer, string] => [
      'image[]',
      picture(i, 16),
      `${i}.png`,
    ]);
    const many = await post('/v1/images/edits', formOf({ prompt: 'many', model: 'gpt-image-1' }, files));
    expect(many.status).toBe(400);
    expect(await many.json()).toMatchObject({ error: { code: 'invalid_multipart' } });
    expect(fake.requests.length).toBe(seen);
  });

  describe('bodies the gateway will not hold', () => {
    const boundary = 'big-form';
    const headers = () => ({
      authorization: `Bearer sk-${customer.token.key}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nbig\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    );

    it('declared over RELAY_BODY_LIMIT: 413 before the body is read, nothing upstream or billed', async () => {
      await onlyChannel();
      const seen = fake.requests.length;
      const before = await balances(t, customer.userId, customer.token.id);
      const call = new Upload(`${t.baseUrl}/v1/images/edits`, headers(), 64 * MB);
      await call.write(Buffer.concat([head, picture(21, 64 * 1024)]));
      const answer = await call.answer;
      call.abort();
      expect(answer.status).toBe(413);
      expect(answer.json).toMatchObject({ error: { code: 'body_too_large' } });
      expect(answer.sentWhenAnswered).toBeLessThan(MB);
      expect(fake.requests.length).toBe(seen);
      expect(await balances(t, customer.userId, customer.token.id)).toEqual(before);
    });

    it('sent chunked past the limit: 413 while the client is still sending, the rest never held', async () => {
      await onlyChannel();
      const seen = fake.requests.length;
      const call = new Upload(`${t.baseUrl}/v1/images/edits`, headers());
      // Never ended: only a server that stops reading at the limit can answer it.
      await call.write(Buffer.concat([head, picture(22, 2 * MB)]), 64 * 1024);
      const answer = await call.answer;
      call.abort();
      expect(answer.status).toBe(413);
      expect(answer.json).toMatchObject({ error: { code: 'body_too_large' } });
      expect(fake.requests.length).toBe(seen);
    });

    it('an upload that never finishes: 408 after REQUEST_BODY_IDLE_TIMEOUT, nothing upstream or billed', async () => {
      await onlyChannel();
      const seen = fake.requests.length;
      const { error, refunded, logged } = await expectRefunded(t, customer, async () => {
        const call = new Upload(`${t.baseUrl}/v1/images/edits`, headers(), 200 * 1024);
        await call.write(Buffer.concat([head, picture(23, 1024)]));
        const answer = await call.answer;
        call.abort();
        throw Object.assign(new Error('refused'), { status: answer.status, body: answer.json });
      });
      expect(error).toMatchObject({ status: 408, body: { error: { code: 'body_timeout' } } });
      expect(refunded && !logged).toBe(true);
      expect(fake.requests.length).toBe(seen);
    });
  });
});
