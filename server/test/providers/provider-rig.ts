import { afterAll, beforeAll } from 'vitest';
import { type Client, startTestApp, type TestApp } from '../harness';
import { type ChannelSpec, type Customer, createChannel, createCustomer } from '../relay-setup';

/** A fake provider: a real server on loopback. */
export interface Upstream {
  url: string;
  close(): Promise<void>;
}

/** What a provider suite works with, ready once its `beforeAll` ran. */
export interface ProviderRig<F extends Upstream> {
  t: TestApp;
  root: Client;
  fake: F;
  /** A user with ample quota, a key and an OpenAI SDK client on the gateway. */
  customer: Customer;
  /** The ids of the suite's channels, in the order given. */
  channels: number[];
  /** The first channel's id. */
  channelId: number;
}

/**
 * The scaffolding every provider suite shares: the fake upstream, the gateway, the provider's
 * channels pointed at the fake (unless they name their own base URL) and a customer; all closed
 * after the suite. Call it inside `describe`; a suite keeps only its provider's wire facts.
 */
export function providerRig<F extends Upstream>(setup: {
  fake: () => Promise<F>;
  channels?: Array<Omit<ChannelSpec, 'base_url'> & { base_url?: string }>;
  customer: string;
  /** The gateway's environment beyond the harness's (small limits, for instance). */
  env?: Record<string, string>;
}): ProviderRig<F> {
  const rig = { channels: [] as number[] } as unknown as ProviderRig<F>;
  Object.defineProperty(rig, 'channelId', { get: () => rig.channels[0] });
  beforeAll(async () => {
    rig.fake = await setup.fake();
    rig.t = await startTestApp({ env: setup.env });
    rig.root = await rig.t.root();
    for (const spec of setup.channels ?? []) {
      rig.channels.push(await createChannel(rig.root, { base_url: rig.fake.url, ...spec }));
    }
    rig.customer = await createCustomer(rig.t, setup.customer, { quota: 100_000_000 });
  });
  afterAll(async () => {
    await rig.t?.close();
    await rig.fake?.close();
  });
  return rig;
}
