import { Busboy } from '@fastify/busboy';
import { RelayError } from '../errors';

/** Bounds on what a form may make the parser hold; the files themselves are skipped, never kept. */
const LIMITS = { fields: 64, fieldSize: 64 * 1024, fieldNameSize: 200, parts: 256, headerPairs: 20 };

/** What the relay reads of a multipart form: its text fields (the first of each name) and how many files each file field holds. */
export interface FormSummary {
  fields: Map<string, string>;
  files: Map<string, number>;
}

/**
 * The text fields and file counts of a multipart form (the upload goes upstream as it came). A form
 * the parser cannot read is the client's error, answered 400 `invalid_multipart`.
 */
export function readForm(raw: Buffer, contentType: string): Promise<FormSummary> {
  return new Promise((resolve, reject) => {
    const form: FormSummary = { fields: new Map(), files: new Map() };
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
      if (!form.fields.has(name)) form.fields.set(name, value);
    });
    parser.on('file', (name, file) => {
      form.files.set(name, (form.files.get(name) ?? 0) + 1);
      // A part cut short fails the parser too (400 above); unheard, its own error would end the process.
      file.on('error', () => undefined);
      file.resume();
    });
    parser.on('error', (error: Error) => refuse(error.message));
    parser.on('finish', () => resolve(form));
    parser.end(raw);
  });
}
