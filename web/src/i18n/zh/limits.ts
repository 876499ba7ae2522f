import type { enLimits } from '../en/limits';
import type { Messages } from '../messages';

/** 令牌与用户的速率限制和周期预算。 */
export const zhLimits: Messages<typeof enLimits> = {
  limits: {
    title: '速率限制',
    rpm_limit: '每分钟请求数',
    tpm_limit: '每分钟 Token 数',
    concurrency_limit: '并发请求数',
    none: '不限制',
    emptyIsNone: '留空表示不限制。',
    capped: '最多 {{max}}（您账户的限制）；留空即使用该值。',
    userHint: '对该用户的所有令牌生效；令牌只能设置更低的值。',
    selfHint: '由管理员为您的所有令牌设置。',
    column: '限制',
    rpm: '{{count}} 次/分钟',
    tpm: '{{count}} Token/分钟',
    concurrency: '{{count}} 并发',
    budget: '周期预算',
    budgetHint: '该令牌每个周期最多可用的额度（在令牌额度之外另行限制）；留空表示不设预算。',
    budgetPeriod: '重置周期',
    budgetPeriodHint: '在服务器时间 00:00 重置。',
    periods: {
      none: '不设预算',
      daily: '每天',
      weekly: '每周一',
      monthly: '每月 1 日',
    },
    budgetUsed: '预算 {{used}} / {{quota}}，{{at}} 重置',
    budgetUsedShort: '预算 {{used}} / {{quota}}',
    resets: '{{at}} 重置',
    errors: {
      rpm_limit: { invalid: '请输入整数，或留空。' },
      tpm_limit: { invalid: '请输入整数，或留空。' },
      concurrency_limit: { invalid: '请输入整数，或留空。' },
      budget_quota: {
        invalid: '请输入整数，或留空。',
        budgetQuota: '请输入每个周期可用的额度，或选择不设预算。',
      },
      budget_period: { budgetPeriod: '请选择预算的重置周期。' },
    },
  },
};
