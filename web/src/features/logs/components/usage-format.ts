import type { QuotaDisplay } from '@switchyard/contract/quota-format';
import { readQuotaDisplay, renderLogQuota } from '../../../lib/format';
import type { UsageMetric } from './dashboard-series';

/** A value of the metric in full: quota as in log rows, counts with separators. */
export function formatUsage(metric: UsageMetric, value: number): string {
  return metric === 'quota' ? renderLogQuota(value) : value.toLocaleString('en-US');
}

/** An axis label: dollars with as many decimals as the step needs, otherwise short numbers. */
export function formatAxis(
  metric: UsageMetric,
  value: number,
  step: number,
  display: QuotaDisplay = readQuotaDisplay(),
): string {
  if (metric === 'quota' && display.displayInCurrency) {
    if (value === 0) return '$0';
    const dollars = value / display.quotaPerUnit;
    const stepDollars = step / display.quotaPerUnit;
    const decimals = stepDollars >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(stepDollars) - 1e-9));
    return `$${dollars.toFixed(decimals)}`;
  }
  if (value >= 1_000_000) return `${trim(value / 1_000_000)}M`;
  if (value >= 1000) return `${trim(value / 1000)}k`;
  return trim(value);
}

const trim = (value: number): string => String(Number(value.toFixed(2)));
