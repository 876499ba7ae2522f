import { Busboy } from '@fastify/busboy';
import { RelayError } from '../errors';

/** Bounds on what a form may make the parser hold; the files themselves are skipped, never kept. */
const LIMITS = { fields: 64, fieldSize: 64 * 1024, fieldNameSize: 200, parts: 256, headerPairs: 20 };

/**
 * The text fields of a multipart form (the relay needs only `model`; the upload goes upstream as it came).
 * A form the parser cannot read is the client's error, answered 400 `invalid_multipart`.
 */
export function readFormFields(raw: Buffer, contentType: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string>();
    const refuse = (why: string) =>
      reject(RelayError.invalid(`The multipart form could not be read: ${why}`, 'invalid_multipart'));
    let parser: InstanceType<typeof Busboy>;
    try {
      parser = new Busboy({ headers: { 'content-type': contentType }, limits: LIMITS });
    } catch (error) {
      refuse((error as Error).message);
      return;
    }
    parser.on('field', (name, value) => {
      if (!fields.has(name)) fields.set(name, value);
    });
    parser.on('file', (_name, file) => file.resume());
    parser.on('error', (error: Error) => refuse(error.message));
    parser.on('finish', () => resolve(fields));
    parser.end(raw);
  });
}
