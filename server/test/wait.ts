export interface WaitOptions {
  /** What is awaited, for the error when it does not come. */
  what: string;
  timeoutMs?: number;
  /** Between two checks. */
  intervalMs?: number;
}

/** Checks `find` until it answers a value; fails naming `what` once `timeoutMs` passed first. */
export async function waitFor<T>(
  find: () => T | undefined | Promise<T | undefined>,
  { what, timeoutMs = 10_000, intervalMs = 25 }: WaitOptions,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** Checks `check` until it holds; fails naming `what` once `timeoutMs` passed first. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  options: WaitOptions,
): Promise<void> {
  await waitFor(async () => ((await check()) ? true : undefined), options);
}
