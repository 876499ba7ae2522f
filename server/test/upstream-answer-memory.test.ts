import { describe, expect, it } from 'vitest';
import { floods, type Sending } from './fakes/hostile-upstream';
import { openAiHandler } from './fakes/openai';
import { builtServerRig } from './process/built-server-rig';
import { settledResidentBytes, watchPeak } from './process/memory';

const MB = 1024 * 1024;
/** What the upstream offers: several times RELAY_ANSWER_LIMIT's default (64 MB). */
const ANSWER_BYTES = 400 * MB;

describe('memory under a huge upstream answer (the built server, default limits)', () => {
  const rig = builtServerRig({
    upstream: openAiHandler(),
    channel: { models: 'gpt-4' },
    customers: { hugeanswer: 100_000_000 },
  });

  const chat = () =>
    fetch(`${rig.server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rig.key('hugeanswer')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4', messages: [{ role: 'user', content: 'hi' }] }),
    });

  it('a 400 MB answer is refused at the limit: 502, the upstream cut off, the memory bounded', async () => {
    const { server, fake } = rig;
    // Warm: the route and the database have been used once.
    expect((await chat()).status).toBe(200);
    const before = await settledResidentBytes(server.pid);

    const sending: Sending = { sent: 0, finished: false };
    fake.use(floods(sending, ANSWER_BYTES, 200, 'application/json', '{"choices":[{"message":{"content":"'));
    const peak = watchPeak(server.pid);
    let growth = 0;
    const response = await chat().finally(() => {
      growth = peak.stop() - before;
    });
    console.log(
      `upstream answer of ${ANSWER_BYTES / MB} MB: resident memory grew by ${Math.round(growth / MB)} MB; ` +
        `the upstream had sent ${Math.round(sending.sent / MB)} MB when it was cut off`,
    );
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { code: 'upstream_answer_too_large' } });
    expect(sending.finished).toBe(false);
    expect(growth, `resident memory grew by ${Math.round(growth / MB)} MB`).toBeLessThan(200 * MB);
    // The server still answers.
    fake.use(openAiHandler());
    expect((await chat()).status).toBe(200);
  }, 120_000);
});
