import type { LogFacts } from '@switchyard/contract/log-facts';
import type { LogEntry } from '@switchyard/contract/logs';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n/i18n';
import { renderAt } from '../../../test/render';
import { LogDetail } from './LogDetail';

const log = (content: string, facts: LogFacts | null): LogEntry => ({
  id: 1,
  user_id: 2,
  created_at: 1_700_000_000,
  type: 2,
  content,
  username: 'alice',
  token_name: '',
  model_name: '',
  quota: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  channel: 0,
  request_id: '',
  elapsed_time: 0,
  is_stream: false,
  facts,
});

const cases: Array<[LogFacts, string, string]> = [
  [
    { kind: 'consume', modelRatio: 0.25, groupRatio: 1, completionRatio: 3 },
    'Model ratio 0.25 × group ratio 1.00 × completion ratio 3.00',
    '模型倍率 0.25 × 分组倍率 1.00 × 补全倍率 3.00',
  ],
  [
    { kind: 'consume', modelRatio: 20, groupRatio: 1.5 },
    'Model ratio 20.00 × group ratio 1.50',
    '模型倍率 20.00 × 分组倍率 1.50',
  ],
  [
    {
      kind: 'consume',
      modelRatio: 1,
      groupRatio: 1,
      completionRatio: 1,
      underpaid: { cost: 1_000_000, charged: 250_000 },
    },
    'Model ratio 1.00 × group ratio 1.00 × completion ratio 1.00 (cost $2.000000, charged the $0.500000 left)',
    '模型倍率 1.00 × 分组倍率 1.00 × 补全倍率 1.00（费用 $2.000000，余额不足，扣除了剩余的 $0.500000）',
  ],
  [
    {
      kind: 'consume',
      modelRatio: 1.5,
      groupRatio: 1,
      completionRatio: 5,
      cacheReadRatio: 0.1,
      cacheWriteRatio: 1.25,
      parts: { cached: 2000, cacheWrite: 400, reasoning: 64 },
    },
    'Model ratio 1.50 × group ratio 1.00 × completion ratio 5.00 · cache read 2,000 tokens at ratio 0.10 · cache write 400 tokens at ratio 1.25 · reasoning 64 tokens',
    '模型倍率 1.50 × 分组倍率 1.00 × 补全倍率 5.00 · 缓存读取 2,000 tokens，倍率 0.10 · 缓存写入 400 tokens，倍率 1.25 · 推理 64 tokens',
  ],
  [
    {
      kind: 'consume',
      modelRatio: 0.075,
      groupRatio: 1,
      completionRatio: 3,
      parts: { imageInput: 258, audioInput: 50, audioOutput: 12 },
      underpaid: { cost: 1_000, charged: 500 },
    },
    'Model ratio 0.07 × group ratio 1.00 × completion ratio 3.00 · audio input 50 tokens · image input 258 tokens · audio output 12 tokens (cost $0.002000, charged the $0.001000 left)',
    '模型倍率 0.07 × 分组倍率 1.00 × 补全倍率 3.00 · 音频输入 50 tokens · 图片输入 258 tokens · 音频输出 12 tokens（费用 $0.002000，余额不足，扣除了剩余的 $0.001000）',
  ],
  [
    { kind: 'consume', modelRatio: 10, groupRatio: 1, images: { count: 2, size: '512x512' } },
    'Model ratio 10.00 × group ratio 1.00 · pictures 2, size 512x512',
    '模型倍率 10.00 × 分组倍率 1.00 · 图片 2 张，尺寸 512x512',
  ],
  [
    {
      kind: 'consume',
      modelRatio: 20,
      groupRatio: 1,
      images: { count: 1, size: '1024x1024', quality: 'hd' },
    },
    'Model ratio 20.00 × group ratio 1.00 · pictures 1, size 1024x1024, quality hd',
    '模型倍率 20.00 × 分组倍率 1.00 · 图片 1 张，尺寸 1024x1024，质量 hd',
  ],
  [
    {
      kind: 'consume',
      modelRatio: 2.5,
      groupRatio: 1,
      completionRatio: 8,
      imageInputRatio: 2,
      parts: { imageInput: 323 },
    },
    'Model ratio 2.50 × group ratio 1.00 × completion ratio 8.00 · image input 323 tokens at ratio 2.00',
    '模型倍率 2.50 × 分组倍率 1.00 × 补全倍率 8.00 · 图片输入 323 tokens，倍率 2.00',
  ],
  [{ kind: 'new_user_bonus', quota: 500_000 }, 'New user bonus of $1.000000', '新用户注册赠送 $1.000000'],
  [
    { kind: 'invitee_bonus', quota: 500_000 },
    'Invitation bonus of $1.000000',
    '使用邀请码注册赠送 $1.000000',
  ],
  [
    { kind: 'inviter_bonus', quota: 500_000 },
    'Bonus of $1.000000 for inviting a user',
    '邀请用户赠送 $1.000000',
  ],
  [
    { kind: 'top_up', quota: 2_000_000, by: 'root' },
    'Top-up of $4.000000 by root',
    '管理员 root 充值 $4.000000',
  ],
  [{ kind: 'top_up', quota: 2_000_000, by: 'root', remark: 'refund <b>' }, 'refund <b>', 'refund <b>'],
  [
    { kind: 'quota_change', from: 500_000, to: 0, by: 'root' },
    'Administrator root changed the quota from $1.000000 to $0.000000',
    '管理员 root 将额度从 $1.000000 修改为 $0.000000',
  ],
  [{ kind: 'redemption', quota: 2_000_000 }, 'Redeemed a code for $4.000000', '通过兑换码充值 $4.000000'],
  [
    { kind: 'channel_test', channel: 'east', success: true, message: 'pong' },
    'Channel east test succeeded, response: pong',
    '渠道 east 测试成功，响应：pong',
  ],
  [
    { kind: 'channel_test', channel: 'east', success: false, message: 'bad key' },
    'Channel east test failed, error: bad key',
    '渠道 east 测试失败，错误：bad key',
  ],
];

beforeEach(() => {
  window.localStorage.setItem('display_in_currency', 'true');
  window.localStorage.setItem('quota_per_unit', '500000');
});
afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

describe('log detail', () => {
  it.each(cases)('says %j in English and in Chinese', async (facts, en, zh) => {
    await i18n.changeLanguage('en');
    renderAt('/', '/', <LogDetail log={log('server text', facts)} />);
    expect(await screen.findByText(en)).toBeTruthy();
    cleanup();
    await i18n.changeLanguage('zh');
    renderAt('/', '/', <LogDetail log={log('server text', facts)} />);
    expect(await screen.findByText(zh)).toBeTruthy();
  });

  it('shows quota as quota when the site does not show currency', async () => {
    window.localStorage.setItem('display_in_currency', 'false');
    await i18n.changeLanguage('zh');
    renderAt('/', '/', <LogDetail log={log('x', { kind: 'redemption', quota: 25_000 })} />);
    expect(await screen.findByText('通过兑换码充值 25.0k')).toBeTruthy();
  });

  it('shows the content as written for rows without facts, or with facts it does not know', async () => {
    await i18n.changeLanguage('zh');
    renderAt('/', '/', <LogDetail log={log('通过兑换码充值 $1.000000 额度', null)} />);
    expect(await screen.findByText('通过兑换码充值 $1.000000 额度')).toBeTruthy();
    cleanup();
    const future = { kind: 'refund', quota: 1 } as unknown as LogFacts;
    renderAt('/', '/', <LogDetail log={log('Refunded 1 quota', future)} />);
    expect(await screen.findByText('Refunded 1 quota')).toBeTruthy();
  });
});
