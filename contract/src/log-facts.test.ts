import { describe, expect, it } from 'vitest';
import { type LogFacts, logFactsText, parseLogFacts } from './log-facts';

describe('log facts', () => {
  it('reads back what was written', () => {
    const facts: LogFacts[] = [
      {
        kind: 'consume',
        modelRatio: 15,
        groupRatio: 1,
        completionRatio: 2,
        underpaid: { cost: 9, charged: 4 },
      },
      { kind: 'consume', modelRatio: 20, groupRatio: 0.5 },
      { kind: 'top_up', quota: 500, by: 'root', remark: 'thanks' },
      { kind: 'quota_change', from: 1, to: 2, by: 'root' },
      { kind: 'channel_test', channel: 'c', success: false, message: 'boom' },
    ];
    for (const fact of facts) expect(parseLogFacts(logFactsText(fact))).toEqual(fact);
  });

  it.each([
    [null],
    [''],
    ['not json'],
    ['null'],
    ['[]'],
    ['{"kind":"mystery","quota":1}'],
    ['{"kind":"redemption"}'],
    ['{"kind":"redemption","quota":"5"}'],
    ['{"kind":"consume","modelRatio":1}'],
  ])('gives undefined, never throws, for %j', (text) => {
    expect(parseLogFacts(text)).toBeUndefined();
  });
});
