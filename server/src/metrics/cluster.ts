import { AggregatorRegistry } from 'prom-client';
import type { GatewayMetrics } from './gateway-metrics';

/**
 * In a worker of a cluster: answer the primary's requests for this worker's metrics (prom-client's
 * AggregatorRegistry listens for them once one is made), so that /metrics adds up every worker's.
 */
export function shareMetricsWithPrimary(metrics: GatewayMetrics): void {
  AggregatorRegistry.setRegistries([metrics.registry]);
  new AggregatorRegistry();
}
