import type { RelayCaller } from '../pipeline/authenticate';
import type { ChannelRouter } from '../pipeline/channel-router';

/** The models a key may call: its own whitelist, or everything its owner's group is routed to. */
export async function modelsForCaller(router: ChannelRouter, caller: RelayCaller): Promise<string[]> {
  const groupModels = await router.modelsFor(caller.user.group || 'default');
  if (!caller.token.models) return groupModels;
  return [...caller.token.models].filter((model) => groupModels.includes(model)).sort();
}
