import { Busboy } from '@fastify/busboy';
import { describe, expect, it } from 'vitest';
import { withFormField } from '../../src/relay/adaptors/form-field';

const BOUNDARY = 'b0und';
const TYPE = `multipart/form-data; boundary="${BOUNDARY}"`;
const FILE = Buffer.from([0, 13, 10, 45, 45, 98, 255, 13, 10]);

const part = (headers: string, body: string | Buffer) =>
  Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n${headers}\r\n\r\n`), Buffer.from(body), Buffer.from('\r\n')]);
const form = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);
const filePart = (name: string) =>
  part(`Content-Disposition: form-data; name="${name}"; filename="model"\r\nContent-Type: image/png`, FILE);

/** The form as a multipart parser reads it: fields, and each file's bytes. */
function read(raw: Buffer): Promise<{ fields: Array<[string, string]>; files: Array<[string, Buffer]> }> {
  return new Promise((resolve, reject) => {
    const fields: Array<[string, string]> = [];
    const files: Array<[string, Buffer]> = [];
    const parser = new Busboy({ headers: { 'content-type': TYPE } });
    parser.on('field', (name, value) => fields.push([name, value]));
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => files.push([name, Buffer.concat(chunks)]));
    });
    parser.on('error', reject);
    parser.on('finish', () => resolve({ fields, files }));
    parser.end(raw);
  });
}

describe('withFormField: the model of a multipart form', () => {
  it('replaces the field, quoted or not, whatever its case; files (one named "model") keep their bytes', async () => {
    for (const header of [
      'Content-Disposition: form-data; name="model"',
      'content-disposition: form-data; name=model',
    ]) {
      const raw = form(
        filePart('image'),
        part(header, 'dall-e-2'),
        part('Content-Disposition: form-data; name="n"', '2'),
      );
      const parsed = await read(withFormField(raw, TYPE, 'model', 'dall-e-2-east'));
      expect(parsed.fields).toEqual([
        ['model', 'dall-e-2-east'],
        ['n', '2'],
      ]);
      expect(parsed.files).toEqual([['image', FILE]]);
    }
  });

  it('adds the field before the closing boundary when the form has none', async () => {
    const raw = form(filePart('model'), part('Content-Disposition: form-data; name="prompt"', 'x'));
    const parsed = await read(withFormField(raw, TYPE, 'model', 'east'));
    expect(parsed.fields).toEqual([
      ['prompt', 'x'],
      ['model', 'east'],
    ]);
    expect(parsed.files).toEqual([['model', FILE]]);
  });

  it('leaves a body it cannot follow as it was', () => {
    const raw = Buffer.from('not a form');
    expect(withFormField(raw, 'multipart/form-data', 'model', 'x')).toBe(raw);
    expect(withFormField(raw, TYPE, 'model', 'x')).toBe(raw);
  });
});
