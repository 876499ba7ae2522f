import { describe, expect, it } from 'vitest';
import { testFailureText } from './channel-labels';

describe('testFailureText', () => {
  const failed = {
    test_error: 'Could not reach the upstream: connect ECONNREFUSED 127.0.0.1:9',
    test_failure: {
      code: 'channel_test_unreachable' as const,
      params: { reason: 'connect ECONNREFUSED 127.0.0.1:9' },
    },
  };

  it("says a coded failure in the console's language, the network's words kept", () => {
    expect(testFailureText(failed, 'zh')).toBe('无法连接上游：connect ECONNREFUSED 127.0.0.1:9');
    expect(testFailureText(failed, 'en')).toBe(
      'Could not reach the upstream: connect ECONNREFUSED 127.0.0.1:9',
    );
  });

  it('shows the stored text of a failure without a known code, and nothing for a test that passed', () => {
    expect(testFailureText({ test_error: 'an older server said so' }, 'zh')).toBe('an older server said so');
    expect(
      testFailureText({ test_error: 'x', test_failure: { code: 'no_such_code' as never, params: {} } }, 'zh'),
    ).toBe('x');
    expect(testFailureText({ test_error: '' }, 'zh')).toBe('');
  });
});
