import { AdminApi } from '../../e2e/src/console';
import { type RunningServer, startServer } from '../../e2e/src/server';
import { CHANNEL_TYPE, UPSTREAM_KEY, UPSTREAM_MODEL, type UpstreamFormat } from './scripted-upstream';

/** One consumption log, as the console's log list gives it. */
export interface ConsumeLog {
  model_name: string;
  prompt_tokens: number;
  completion_tokens: number;
  quota: number;
  channel: number;
}

export interface Gateway {
  url: string;
  /** The Switchyard key ("sk-…") root made for the agent. */
  key: string;
  /** Root's used quota and consumption logs. */
  billing(): Promise<{ usedQuota: number; logs: ConsumeLog[] }>;
  stop(): Promise<void>;
}

/**
 * The built server on a fresh SQLite database, set up as an operator would through the console's
 * API: one channel of the upstream's type to the fake, offering the agent's model (mapped to the
 * upstream's own name when they differ), and a key of root's.
 */
export async function startGateway(upstream: {
  format: UpstreamFormat;
  url: string;
  agentModel: string;
}): Promise<Gateway> {
  const server: RunningServer = await startServer({ LOG_LEVEL: 'warn' });
  try {
    const admin = new AdminApi(server.baseUrl);
    await admin.login();
    const upstreamModel = UPSTREAM_MODEL[upstream.format];
    const mapping = upstreamModel === upstream.agentModel ? {} : { [upstream.agentModel]: upstreamModel };
    await admin.call('POST', '/api/channel/', {
      name: `${upstream.format} upstream`,
      type: CHANNEL_TYPE[upstream.format],
      key: UPSTREAM_KEY,
      base_url: upstream.url,
      models: upstream.agentModel,
      model_mapping: JSON.stringify(mapping),
      group: 'default',
    });
    const token = await admin.call<{ key: string }>('POST', '/api/token/', {
      name: 'agent',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
    });
    return {
      url: server.baseUrl,
      key: `sk-${token.key}`,
      async billing() {
        const self = await admin.call<{ used_quota: number }>('GET', '/api/user/self');
        const page = await admin.call<ConsumeLog[] | { items: ConsumeLog[] }>(
          'GET',
          '/api/log/self?type=2&p=0',
        );
        return { usedQuota: self.used_quota, logs: Array.isArray(page) ? page : page.items };
      },
      stop: () => server.stop(),
    };
  } catch (error) {
    await server.stop();
    throw error;
  }
}
