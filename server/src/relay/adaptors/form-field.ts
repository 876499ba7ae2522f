/** The boundary a multipart content type names, or undefined. */
function boundaryOf(contentType: string): string | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/** A part's headers name it `name` (quoted or not) and carry no file. */
const isTextField = (headers: string, name: string): boolean =>
  new RegExp(`(?:^|[;\\s])name=(?:"${name}"|${name})(?:[;\\s]|$)`, 'i').test(headers) &&
  !/filename\*?=/i.test(headers);

/**
 * A multipart body (already read by the relay's parser) with the text field `name` set to `value`:
 * its value replaced where the form has it, else a part added before the closing boundary. The files
 * are copied as they are. A body this cannot follow is answered unchanged.
 */
export function withFormField(raw: Buffer, contentType: string, name: string, value: string): Buffer {
  const boundary = boundaryOf(contentType);
  if (!boundary) return raw;
  const delimiter = Buffer.from(`--${boundary}`);
  const nextDelimiter = Buffer.from(`\r\n--${boundary}`);
  let start = raw.indexOf(delimiter);
  while (start !== -1) {
    const afterDelimiter = start + delimiter.length;
    if (raw.subarray(afterDelimiter, afterDelimiter + 2).toString('latin1') === '--') {
      const part = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      return Buffer.concat([raw.subarray(0, start), Buffer.from(part), raw.subarray(start)]);
    }
    const headersEnd = raw.indexOf('\r\n\r\n', afterDelimiter);
    if (headersEnd === -1) return raw;
    const next = raw.indexOf(nextDelimiter, headersEnd + 4);
    if (next === -1) return raw;
    if (isTextField(raw.subarray(afterDelimiter, headersEnd).toString('latin1'), name)) {
      return Buffer.concat([raw.subarray(0, headersEnd + 4), Buffer.from(value), raw.subarray(next)]);
    }
    start = next + 2;
  }
  return raw;
}
