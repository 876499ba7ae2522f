import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Busboy } from '@fastify/busboy';
import { DomainError } from '../../domain/errors';
import { bodyTooLarge } from '../../http/body-errors';
import type { EncodedForm, UploadedForm } from '../adaptors/types';
import { RelayError } from '../errors';
import type { FormSummary } from './multipart-form';

/** Bounds on the form's text; files are written to disk as they come, never held. */
const LIMITS = {
  fields: 64,
  fieldSize: 64 * 1024,
  fieldNameSize: 200,
  parts: 256,
  headerPairs: 20,
  files: 32,
};

interface SpooledFile {
  name: string;
  filename: string;
  mimeType: string;
  path: string;
  size: number;
}

/** A name or file name inside a quoted header parameter: no quote, no line break. */
const quoted = (text: string) => text.replace(/"/g, '%22').replace(/[\r\n]/g, ' ');

/**
 * A multipart upload read once from the client into a temporary directory: its text fields in memory,
 * its files on disk. The provider gets it re-encoded (fields first, then the files read from disk),
 * as many times as the relay tries channels; memory holds a few chunks of it at a time.
 */
export class SpooledForm implements UploadedForm {
  readonly #fields: Array<[string, string]> = [];
  readonly #files: SpooledFile[] = [];

  constructor(private readonly dir: string) {}

  addField(name: string, value: string): void {
    this.#fields.push([name, value]);
  }

  addFile(file: SpooledFile): void {
    this.#files.push(file);
  }

  /** The first value of each field and how many files each file field holds, as readForm answers. */
  summary(): FormSummary {
    const summary: FormSummary = { fields: new Map(), files: new Map() };
    for (const [name, value] of this.#fields) if (!summary.fields.has(name)) summary.fields.set(name, value);
    for (const { name } of this.#files) summary.files.set(name, (summary.files.get(name) ?? 0) + 1);
    return summary;
  }

  encode(model?: string): EncodedForm {
    const boundary = `----switchyard${randomBytes(12).toString('hex')}`;
    const fields = this.#fields.map(([name, value]): [string, string] => [
      name,
      name === 'model' && model !== undefined ? model : value,
    ]);
    if (model !== undefined && !fields.some(([name]) => name === 'model')) fields.unshift(['model', model]);
    const head = Buffer.from(
      fields
        .map(
          ([name, value]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
        )
        .join(''),
    );
    const fileHeads = this.#files.map((file) =>
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.name)}"; filename="${quoted(file.filename)}"\r\nContent-Type: ${quoted(file.mimeType)}\r\n\r\n`,
      ),
    );
    const tail = Buffer.from(`--${boundary}--\r\n`);
    const length =
      head.length +
      fileHeads.reduce((sum, part, index) => sum + part.length + (this.#files[index]?.size ?? 0) + 2, 0) +
      tail.length;
    const files = this.#files;
    async function* bytes(): AsyncGenerator<Buffer> {
      yield head;
      for (const [index, file] of files.entries()) {
        yield fileHeads[index] as Buffer;
        for await (const chunk of createReadStream(file.path)) yield chunk as Buffer;
        yield Buffer.from('\r\n');
      }
      yield tail;
    }
    return {
      contentType: `multipart/form-data; boundary=${boundary}`,
      length,
      stream: () => Readable.from(bytes(), { objectMode: false }),
    };
  }

  /** Removes the files; the call is over. */
  dispose(): Promise<void> {
    return rm(this.dir, { recursive: true, force: true });
  }
}

/**
 * Reads a multipart upload from `source` into a SpooledForm, `limit` bytes at most: past it the
 * reading stops and the answer is 413 (a DomainError), before any provider is called. A form the parser cannot read
 * is the client's error (400 `invalid_multipart`); a failed read leaves no file behind.
 */
export async function spoolForm(source: Readable, contentType: string, limit: number): Promise<SpooledForm> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-upload-'));
  const form = new SpooledForm(dir);
  try {
    await new Promise<void>((resolve, reject) => {
      let parser: InstanceType<typeof Busboy>;
      try {
        parser = new Busboy({ headers: { 'content-type': contentType }, limits: LIMITS });
      } catch (error) {
        reject(
          RelayError.invalid(
            `The multipart form could not be read: ${(error as Error).message}`,
            'invalid_multipart',
          ),
        );
        return;
      }
      /** The files in the order the client sent them (their writes may end in another order). */
      const writes: Array<Promise<SpooledFile>> = [];
      /** Files still being written: closed when the upload is refused, so no descriptor stays open. */
      const open = new Set<Readable>();
      let failed = false;
      const fail = (error: RelayError | DomainError) => {
        if (failed) return;
        failed = true;
        source.unpipe(parser);
        // What the client still sends is read and dropped, so that it reads the answer.
        source.resume();
        for (const file of open) file.destroy();
        reject(error);
      };
      let received = 0;
      source.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > limit) fail(bodyTooLarge(limit));
      });
      // The body's meter (http/body-budget) ends a silent or over-budget upload with its own refusal.
      source.on('error', (error) =>
        fail(
          error instanceof DomainError
            ? error
            : RelayError.invalid('The upload was cut short', 'invalid_multipart'),
        ),
      );
      source.on('aborted', () => fail(RelayError.invalid('The upload was cut short', 'invalid_multipart')));
      const unreadable = (why: string) =>
        fail(RelayError.invalid(`The multipart form could not be read: ${why}`, 'invalid_multipart'));
      // Busboy drops what is over its limits without failing: relayed, the form would be cut short.
      parser.on('field', (name, value, nameTruncated, valueTruncated) => {
        if (nameTruncated || valueTruncated) unreadable(`the field ${name} is longer than 64 KB`);
        else form.addField(name, value);
      });
      parser.on('filesLimit', () => unreadable(`it holds more than ${LIMITS.files} files`));
      parser.on('fieldsLimit', () => unreadable(`it holds more than ${LIMITS.fields} fields`));
      parser.on('partsLimit', () => unreadable(`it holds more than ${LIMITS.parts} parts`));
      parser.on('file', (name, file, filename, _encoding, mimeType) => {
        const path = join(dir, String(writes.length));
        let size = 0;
        file.on('data', (chunk: Buffer) => {
          size += chunk.length;
        });
        open.add(file);
        const stored = pipeline(file, createWriteStream(path)).then(
          (): SpooledFile => ({
            name,
            filename: filename || 'upload',
            mimeType: mimeType || 'application/octet-stream',
            path,
            size,
          }),
        );
        // A part cut short fails the parser too (refused above); unheard, its own error would be unhandled.
        stored.catch(() => undefined).finally(() => open.delete(file));
        writes.push(stored);
      });
      parser.on('error', (error: Error) => unreadable(error.message));
      parser.on('finish', () => {
        Promise.all(writes).then(
          (files) => {
            if (failed) return;
            for (const file of files) form.addFile(file);
            resolve();
          },
          () => fail(RelayError.invalid('The multipart form could not be read', 'invalid_multipart')),
        );
      });
      source.pipe(parser);
    });
  } catch (error) {
    await form.dispose();
    throw error;
  }
  return form;
}
