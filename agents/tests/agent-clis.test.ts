import { resolveCompletionRatio, resolveModelRatio } from '@switchyard/contract/model-ratios';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AGENT_FORMAT, AGENT_MODEL, type AgentName, type AgentRun, runAgent } from '../src/agent-clis';
import { type Customer, type Gateway, startGateway } from '../src/gateway';
import { CHANNEL_TYPE, ScriptedUpstream, UPSTREAM_KEY, type UpstreamFormat } from '../src/scripted-upstream';

const AGENTS: AgentName[] = ['claude', 'codex', 'gemini'];
const FORMATS: UpstreamFormat[] = ['anthropic', 'openai', 'gemini'];

const cases = AGENTS.flatMap((agent) =>
  FORMATS.map((format) => ({
    agent,
    format,
    way: AGENT_FORMAT[agent] === format ? 'passed through' : 'translated',
    // A username, and the group whose one channel reaches this case's fake.
    name: `${agent}-${format.slice(0, 3)}`,
  })),
);

/** Waits until the gateway has written a log for each of the fake's answers (logs are written after the answer). */
async function logsFor(customer: Customer, count: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const seen = await customer.billing();
    if (seen.logs.length >= count || Date.now() > deadline) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What a failed case shows: the CLI's output and the start of each request the fake received. */
const transcriptOf = (run: AgentRun, upstream: ScriptedUpstream): string =>
  [
    `exit ${run.code} after ${run.took} ms`,
    `--- stdout\n${run.stdout}`,
    `--- stderr\n${run.stderr}`,
    '--- upstream saw',
    ...upstream.fake.requests.map(
      (request) => `${request.method} ${request.url} ${request.body.slice(0, 3000)}`,
    ),
  ].join('\n');

describe('the agent CLIs through the gateway', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway(cases.map(({ name }) => name));
  });
  afterAll(() => gateway?.stop());

  test.concurrent.each(cases)('$agent, $format channel ($way)', async ({ agent, format, name }) => {
    const upstream = await new ScriptedUpstream(format).start();
    try {
      const customer = await gateway.addCustomer(name, {
        format,
        url: upstream.url,
        agentModel: AGENT_MODEL[agent],
      });
      const run = await runAgent(agent, gateway.url, customer.key);
      const transcript = transcriptOf(run, upstream);
      expect(run.code, transcript).toBe(0);
      expect(upstream.turns.filter((turn) => turn.answer === 'shell-call').length, transcript).toBe(1);
      expect(upstream.roundTrips, transcript).toBe(1);
      expect(run.stdout.split(upstream.finalText).length - 1, transcript).toBe(1);
      // The provider is called with the channel's key, never the customer's.
      for (const { headers, body } of upstream.fake.requests) {
        expect(JSON.stringify(headers)).toContain(UPSTREAM_KEY);
        expect(JSON.stringify(headers) + body).not.toContain(customer.key.slice(3));
      }

      const modelRatio = resolveModelRatio(AGENT_MODEL[agent], CHANNEL_TYPE[format]);
      const completionRatio = resolveCompletionRatio(AGENT_MODEL[agent], CHANNEL_TYPE[format]);
      const price = ({ prompt, completion }: { prompt: number; completion: number }) =>
        Math.ceil(Number(((prompt + completion * completionRatio) * modelRatio).toPrecision(12)));
      const { usedQuota, logs } = await logsFor(customer, upstream.turns.length);
      expect(
        logs
          .map((log) => ({
            model: log.model_name,
            prompt: log.prompt_tokens,
            completion: log.completion_tokens,
            quota: log.quota,
          }))
          .reverse(),
      ).toEqual(
        upstream.turns.map(({ usage }) => ({ model: AGENT_MODEL[agent], ...usage, quota: price(usage) })),
      );
      expect(usedQuota).toBe(upstream.turns.reduce((sum, { usage }) => sum + price(usage), 0));
      console.log(`${agent} on ${format}: ${run.took} ms, ${upstream.turns.length} upstream calls`);
    } finally {
      await upstream.fake.close();
    }
  });
});
