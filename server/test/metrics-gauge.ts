/**
 * A sample of a server's Prometheus metrics as the scrape prints it (`name` or `name{label="x"}`);
 * NaN when it is not there or the server does not answer.
 */
export async function gauge(baseUrl: string, token: string, sample: string): Promise<number> {
  const answer = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } }).catch(
    () => undefined,
  );
  const line = ((await answer?.text()) ?? '').split('\n').find((text) => text.startsWith(`${sample} `));
  return Number(line?.slice(sample.length + 1) ?? Number.NaN);
}
