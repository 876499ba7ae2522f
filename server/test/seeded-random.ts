const DAY = 86400;
const HOUR = 3600;

/** A repeatable random sequence (a linear congruential generator), so a failing draw can be replayed. */
export function seededRandom(seed: number) {
  let state = seed;
  const random = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const pick = <T>(values: T[]): T => values[Math.floor(random() * values.length)]!;
  /** A time in the three days from `start` (a day boundary): anywhere, and next to hour and day edges. */
  const timeWithinThreeDays = (start: number): number =>
    pick([
      () => start + Math.floor(random() * 3 * DAY),
      () => start + Math.floor(random() * 4) * DAY + pick([-1, 0, 1]),
      () => start + Math.floor(random() * 72) * HOUR + pick([-1, 0, 1, 3599]),
    ])();
  /** A log row of one-api's columns for `user` at `createdAt`: random type, key, model, quota and channel. */
  const logOf = (user: { id: number; name: string }, createdAt: number, content: string) => ({
    user_id: user.id,
    created_at: createdAt,
    type: pick([1, 2, 2, 2, 3]),
    content,
    username: user.name,
    token_name: pick(['a1', 'b1', '']),
    model_name: pick(['gpt-4', 'gpt-4o', '']),
    quota: Math.floor(random() * 1000),
    prompt_tokens: 1,
    completion_tokens: 1,
    channel_id: pick([1, 2, 3]),
    request_id: '',
    elapsed_time: 0,
    is_stream: false,
    system_prompt_reset: false,
  });
  return { random, pick, timeWithinThreeDays, logOf };
}
