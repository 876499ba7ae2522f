/** Google's Generative Language API takes the key in a header (not the `key=` query, which would end up in logs). */
export const authHeaders = (apiKey: string): Record<string, string> => ({ 'x-goog-api-key': apiKey });
