import { LogType } from '@switchyard/contract/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake, type RecordedRequest, sendJson } from './fakes/http-fake';
import { openAiError, openAiHandler } from './fakes/openai';
import { type Client, type EnvelopeBody, startTestApp } from './harness';
import { createChannel, createCustomer } from './relay-setup';

const deadKey = () =>
  openAiError(401, 'Incorrect API key provided: sk-dead', 'invalid_request_error', 'invalid_api_key');

async function setOptions(root: Client, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const saved = await root.put('/api/option/', { key, value });
    if (!saved.body.success) throw new Error(`option ${key}: ${saved.body.message}`);
  }
}

async function waitFor<T>(
  find: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The gateway and a Message Pusher fake taking root's notices. */
async function gateway(env: Record<string, string>, options: Record<string, string>) {
  const pusher = await new HttpFake((_request, res) => sendJson(res, 200, { success: true })).start();
  const t = await startTestApp({ env });
  const root = await t.root();
  await setOptions(root, { MessagePusherAddress: `${pusher.url}/push`, ...options });
  const pushed = (phrase: string) => () =>
    pusher.requests.find((request: RecordedRequest) => String(request.json?.content ?? '').includes(phrase));
  const statusOf = async (id: number) =>
    (await root.get<EnvelopeBody<{ status: number }>>(`/api/channel/${id}`)).body.data?.status;
  const systemLogs = (channelId: number) =>
    t.db.kysely
      .selectFrom('logs')
      .select(['content', 'user_id'])
      .where('type', '=', LogType.system)
      .where('channel_id', '=', channelId)
      .execute();
  return { t, root, pusher, pushed, statusOf, systemLogs };
}

describe('CHANNEL_TEST_FREQUENCY: every channel tested on a period', () => {
  let g: Awaited<ReturnType<typeof gateway>>;
  const upstream = new HttpFake(deadKey());

  beforeAll(async () => {
    await upstream.start();
    // 0.01 minutes: a run every 0.6 s.
    g = await gateway(
      { CHANNEL_TEST_FREQUENCY: '0.01', POLLING_INTERVAL: '0' },
      { AutomaticDisableChannelEnabled: 'true', AutomaticEnableChannelEnabled: 'true' },
    );
  });
  afterAll(async () => {
    await g?.t.close();
    await Promise.all([upstream.close(), g?.pusher.close()]);
  });

  it('disables a channel whose key died, and enables it again once it answers, telling root', async () => {
    const id = await createChannel(g.root, {
      name: 'periodic',
      base_url: upstream.url,
      models: 'gpt-3.5-turbo',
    });
    await waitFor(async () => ((await g.statusOf(id)) === 3 ? true : undefined), 'the channel disabled');
    const disabled = await waitFor(g.pushed('"periodic"'), 'the disabled notice');
    expect(disabled.json?.content).toMatch(
      /"periodic" \(#\d+\) has been disabled automatically: .*Incorrect API key/,
    );

    upstream.use(openAiHandler());
    await waitFor(async () => ((await g.statusOf(id)) === 1 ? true : undefined), 'the channel enabled again');
    await waitFor(g.pushed('has been enabled again'), 'the enabled notice');
    // The system line is written beside the notice, not before it: wait for both lines.
    const logs = await waitFor(async () => {
      const lines = (await g.systemLogs(id)).map((log) => log.content);
      return lines.length >= 2 ? lines : undefined;
    }, 'the two system lines');
    expect(logs).toEqual([
      expect.stringMatching(/^Channel "periodic" \(#\d+\) was disabled automatically: .*Incorrect API key/),
      expect.stringMatching(/^Channel "periodic" \(#\d+\) was enabled again: its test passed$/),
    ]);
    // Tested on the period: more runs follow, each writing its test log.
    const tested = upstream.requests.length;
    await waitFor(() => (upstream.requests.length >= tested + 2 ? true : undefined), 'more runs');
  });

  it('leaves a channel an administrator disabled alone, and one whose upstream is only busy', async () => {
    const manual = await createChannel(g.root, {
      name: 'manual',
      base_url: upstream.url,
      models: 'gpt-3.5-turbo',
    });
    await g.root.put('/api/channel/', { id: manual, status: 2 });
    const busyFake = await new HttpFake(openAiError(429, 'Rate limit reached', 'requests')).start();
    const busy = await createChannel(g.root, {
      name: 'busy',
      base_url: busyFake.url,
      models: 'gpt-3.5-turbo',
    });
    await waitFor(() => (busyFake.requests.length >= 2 ? true : undefined), 'two runs over the busy channel');
    expect([await g.statusOf(manual), await g.statusOf(busy)]).toEqual([2, 1]);
    await busyFake.close();
  });
});

describe('ENABLE_METRIC: the success-rate monitor over relayed calls', () => {
  let g: Awaited<ReturnType<typeof gateway>>;
  const upstream = new HttpFake(openAiHandler());

  beforeAll(async () => {
    await upstream.start();
    // As in one-api, the monitor is its own switch: AutomaticDisableChannelEnabled does not gate it.
    g = await gateway(
      { ENABLE_METRIC: 'true', METRIC_QUEUE_SIZE: '4', METRIC_SUCCESS_RATE_THRESHOLD: '0.5' },
      { AutomaticDisableChannelEnabled: 'false' },
    );
  });
  afterAll(async () => {
    await g?.t.close();
    await Promise.all([upstream.close(), g?.pusher.close()]);
  });

  it('disables a channel once too few of its last calls succeeded, and says so', async () => {
    const id = await createChannel(g.root, {
      name: 'flaky',
      base_url: upstream.url,
      models: 'gpt-3.5-turbo',
    });
    const customer = await createCustomer(g.t, 'metric');
    const chat = async () =>
      (
        await fetch(`${g.t.baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer sk-${customer.token.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'hi' }] }),
        })
      ).status;
    expect([await chat(), await chat()]).toEqual([200, 200]);
    upstream.use(openAiError(500, 'The server had an error', 'server_error'));
    // Window of 4: [ok ok fail fail] is 50 %, not under the threshold; one more failure is 25 %.
    expect([await chat(), await chat()]).toEqual([500, 500]);
    expect(await g.statusOf(id)).toBe(1);
    expect(await chat()).toBe(500);
    expect(await g.statusOf(id)).toBe(3);
    const notice = await waitFor(g.pushed('"flaky"'), 'the disabled notice');
    expect(notice.json?.content).toMatch(
      /"flaky" \(#\d+\) has been disabled automatically: its success rate over the last 4 calls is 25%, under the threshold of 50%/,
    );
    const logs = await waitFor(async () => {
      const found = await g.systemLogs(id);
      return found.length > 0 ? found : undefined;
    }, 'the system log line');
    expect(logs).toEqual([
      {
        user_id: 0,
        content: expect.stringMatching(
          /^Channel "flaky" \(#\d+\) was disabled automatically: its success rate/,
        ),
      },
    ]);
    // Disabled, it takes no more calls: the model has no channel left.
    expect(await chat()).not.toBe(200);
  });
});
