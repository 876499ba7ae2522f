/** A body that arrives in one piece: an answer the gateway made up or read whole, handed on as a response body. */
export async function* wholeBody(bytes: Buffer | string): AsyncIterable<Uint8Array> {
  yield Buffer.from(bytes);
}
