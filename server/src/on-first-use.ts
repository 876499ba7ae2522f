/**
 * A package loaded the first time a feature needs it rather than when the server starts: payments,
 * passkeys, QR codes, OpenID Connect's tokens and AWS signing cost about 13 MB of heap together, which
 * a gateway that never uses them should not carry. Calls meanwhile share the one load; a load that
 * fails is tried again by the next call.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
