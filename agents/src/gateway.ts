import { AdminApi } from '../../e2e/src/console';
import { type RunningServer, startServer } from '../../e2e/src/server';
import { CHANNEL_TYPE, UPSTREAM_KEY, UPSTREAM_MODEL, type UpstreamFormat } from './scripted-upstream';

/** One consumption log, as the console's log list gives it. */
export interface ConsumeLog {
  model_name: string;
  prompt_tokens: number;
  completion_tokens: number;
  quota: number;
}

/** A customer of the gateway whose calls reach one upstream only. */
export interface Customer {
  /** The customer's Switchyard key ("sk-…"). */
  key: string;
  /** The customer's used quota and consumption logs, newest first. */
  billing(): Promise<{ usedQuota: number; logs: ConsumeLog[] }>;
}

export interface Gateway {
  url: string;
  /**
   * A customer in a group of its own, served by one channel of the upstream's type to the fake that
   * offers the agent's model (mapped to the upstream's own name when they differ), as an operator
   * sets it up through the console's API.
   */
  addCustomer(
    name: string,
    upstream: { format: UpstreamFormat; url: string; agentModel: string },
  ): Promise<Customer>;
  stop(): Promise<void>;
}

const PASSWORD = 'agent-password';

/** The built server on a fresh SQLite database, with a group of its own for each of `groups`. */
export async function startGateway(groups: string[]): Promise<Gateway> {
  const server: RunningServer = await startServer();
  const root = new AdminApi(server.baseUrl);
  try {
    await root.login();
    await root.setOptions({
      GroupRatio: JSON.stringify(Object.fromEntries(['default', ...groups].map((group) => [group, 1]))),
    });
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    url: server.baseUrl,
    async addCustomer(name, upstream) {
      const upstreamModel = UPSTREAM_MODEL[upstream.format];
      const mapping = upstreamModel === upstream.agentModel ? {} : { [upstream.agentModel]: upstreamModel };
      await root.call('POST', '/api/channel/', {
        name: `${name} ${upstream.format}`,
        type: CHANNEL_TYPE[upstream.format],
        key: UPSTREAM_KEY,
        base_url: upstream.url,
        models: upstream.agentModel,
        model_mapping: JSON.stringify(mapping),
        group: name,
      });
      await root.createUser(name, PASSWORD);
      const customer = new AdminApi(server.baseUrl);
      await customer.login(name, PASSWORD);
      const { id } = await customer.call<{ id: number }>('GET', '/api/user/self');
      await root.call('PUT', '/api/user/', { id, group: name, quota: 100_000_000 });
      const token = await customer.call<{ key: string }>('POST', '/api/token/', {
        name: 'agent',
        remain_quota: 0,
        unlimited_quota: true,
        expired_time: -1,
      });
      return {
        key: `sk-${token.key}`,
        async billing() {
          const self = await customer.call<{ used_quota: number }>('GET', '/api/user/self');
          const page = await customer.call<ConsumeLog[] | { items: ConsumeLog[] }>(
            'GET',
            '/api/log/self?type=2&p=0',
          );
          return { usedQuota: self.used_quota, logs: Array.isArray(page) ? page : page.items };
        },
      };
    },
    stop: () => server.stop(),
  };
}
