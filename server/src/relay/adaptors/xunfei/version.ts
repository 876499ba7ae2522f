import { configTextOrOther } from '../channel-config';
import type { RelayCall } from '../types';

const DEFAULT_HOST = 'wss://spark-api.xf-yun.com';

/** The current names say which API version serves them. */
const VERSION_BY_MODEL: Readonly<Record<string, string>> = {
  'Spark-Lite': 'v1.1',
  'Spark-Pro': 'v3.1',
  'Spark-Pro-128K': 'v3.1-128K',
  'Spark-Max': 'v3.5',
  'Spark-Max-32K': 'v3.5-32K',
  'Spark-4.0-Ultra': 'v4.0',
};

const DOMAIN_BY_VERSION: Readonly<Record<string, string>> = {
  'v1.1': 'lite',
  'v2.1': 'generalv2',
  'v3.1': 'generalv3',
  'v3.1-128K': 'pro-128k',
  'v3.5': 'generalv3.5',
  'v3.5-32K': 'max-32k',
  'v4.0': '4.0Ultra',
};

/** The long-context models have their own paths rather than a version segment. */
const PATH_BY_VERSION: Readonly<Record<string, string>> = {
  'v3.1-128K': '/chat/pro-128k',
  'v3.5-32K': '/chat/max-32k',
};

/** From the model name (Spark-Max, or the older SparkDesk-v3.5), else the channel's setting, else v1.1. */
export function sparkVersion(call: RelayCall): string {
  const model = call.upstreamModel;
  const named = VERSION_BY_MODEL[model] ?? /^[^-]+-(v\d.*)$/.exec(model)?.[1];
  return named ?? configTextOrOther(call, 'api_version') ?? 'v1.1';
}

export const sparkDomain = (version: string) => DOMAIN_BY_VERSION[version] ?? `general${version}`;

/** The WebSocket address (unsigned): the channel's base URL with http(s) read as ws(s), else iFlytek's host. */
export function sparkUrl(call: RelayCall, version: string): string {
  const base = (call.baseUrl || DEFAULT_HOST).replace(/^http(s?):\/\//, 'ws$1://');
  return `${base}${PATH_BY_VERSION[version] ?? `/${version}/chat`}`;
}
