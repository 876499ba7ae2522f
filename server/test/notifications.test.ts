import type { User } from '@switchyard/contract/users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpFake, type RecordedRequest, sendJson } from './fakes/http-fake';
import { openAiError, openAiHandler } from './fakes/openai';
import { MailCatcher } from './fakes/smtp';
import { type Client, type EnvelopeBody, startTestApp, type TestApp } from './harness';
import { createChannel, createCustomer } from './relay-setup';
import { waitFor } from './wait';

const PUSHER_TOKEN = 'pusher-token-value';
const deadKey = () =>
  openAiError(401, 'Incorrect API key provided: sk-dead', 'invalid_request_error', 'invalid_api_key');

async function setOptions(root: Client, values: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(values)) {
    const saved = await root.put('/api/option/', { key, value });
    if (!saved.body.success) throw new Error(`option ${key}: ${saved.body.message}`);
  }
}

describe('notices to the super administrator', () => {
  let t: TestApp;
  let root: Client;
  const smtp = new MailCatcher();
  const upstream = new HttpFake(deadKey());
  const pusher = new HttpFake((_request, res) => sendJson(res, 200, { success: true, message: 'ok' }));
  const pushed = (phrase: string) => () =>
    pusher.requests.find((request: RecordedRequest) => String(request.json?.content ?? '').includes(phrase));

  beforeAll(async () => {
    await Promise.all([smtp.start(), upstream.start(), pusher.start()]);
    t = await startTestApp();
    root = await t.root();
    await setOptions(root, {
      AutomaticDisableChannelEnabled: 'true',
      AutomaticEnableChannelEnabled: 'true',
      MessagePusherAddress: `${pusher.url}/push/root`,
      MessagePusherToken: PUSHER_TOKEN,
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPFrom: 'alerts@gateway.example.com',
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([smtp.close(), upstream.close(), pusher.close()]);
  });

  it('pushes a notice when a channel is disabled automatically, and when it comes back', async () => {
    upstream.use(deadKey());
    const channelId = await createChannel(root, { name: 'dead-key-channel', base_url: upstream.url });
    const customer = await createCustomer(t, 'sam');
    await expect(
      customer.openai.chat.completions.create({
        model: 'gpt-3.5-turbo',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toThrow();

    const notice = await waitFor(pushed('"dead-key-channel"'), {
      what: 'the channel-disabled notice',
      timeoutMs: 5_000,
    });
    expect(notice.method).toBe('POST');
    expect(notice.url).toBe('/push/root');
    expect(notice.json).toMatchObject({ title: 'Channel status change', token: PUSHER_TOKEN });
    expect(notice.json?.content).toMatch(
      /"dead-key-channel" \(#\d+\) has been disabled automatically: .*Incorrect API key/,
    );
    expect(notice.json?.description).toBe(notice.json?.content);
    const channel = await root.get<EnvelopeBody<{ status: number }>>(`/api/channel/${channelId}`);
    expect(channel.body.data?.status).toBe(3);

    upstream.use(openAiHandler());
    expect((await root.get('/api/channel/test?scope=disabled')).body.success).toBe(true);
    const back = await waitFor(pushed('has been enabled again'), {
      what: 'the channel-enabled notice',
      timeoutMs: 5_000,
    });
    expect(back.json?.content).toMatch(/"dead-key-channel"/);
  });

  it('mails root instead when no message pusher is set', async () => {
    const found = await root.get<EnvelopeBody<User[]>>('/api/user/search?keyword=root');
    const rootId = found.body.data?.find((user) => user.username === 'root')?.id;
    await root.put('/api/user/', { id: rootId, email: 'root@example.com' });
    await setOptions(root, { MessagePusherAddress: '' });
    const seenPushes = pusher.requests.length;
    const seenMails = smtp.to('root@example.com').length;

    upstream.use(deadKey());
    await createChannel(root, { name: 'mailed-channel', base_url: upstream.url, models: 'mail-test-model' });
    const customer = await createCustomer(t, 'tina');
    await expect(
      customer.openai.chat.completions.create({
        model: 'mail-test-model',
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toThrow();

    const mail = await smtp.next('root@example.com', seenMails);
    expect(mail.subject).toBe('Channel status change');
    expect(mail.body).toMatch(/&quot;mailed-channel&quot; \(#\d+\) has been disabled automatically/);
    expect(pusher.requests.length).toBe(seenPushes);
  });
});
