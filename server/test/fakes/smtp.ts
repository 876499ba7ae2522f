import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  /** The decoded text of the message's body parts, joined. */
  body: string;
  raw: string;
  /** True when the message came over TLS (implicit, or upgraded with STARTTLS). */
  secure: boolean;
  /** The cipher of that TLS connection, as the server saw it ('' without TLS). */
  cipher: string;
}

export interface MailCatcherOptions {
  /** The login the server wants (AUTH); without it, no AUTH is offered. */
  credentials?: { user: string; pass: string };
  /**
   * A key and certificate (PEM) for TLS: STARTTLS is offered on the plain connection, or with
   * `implicit` the server speaks TLS from the first byte (as on port 465). Without it: no TLS.
   */
  tls?: { key: string; cert: string; implicit?: boolean };
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Decodes RFC 2047 words (`=?UTF-8?Q?…?=` / `?B?`) in a header value. */
function decodeHeader(value: string): string {
  return value.replace(
    /=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g,
    (_match, _charset, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

function splitHeaders(part: string): { headers: Map<string, string>; body: string } {
  const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: rest.join('\n\n') };
}

/** The text of a message: every leaf part decoded (quoted-printable, base64 or plain). */
function bodyText(part: string): string {
  const { headers, body } = splitHeaders(part);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((child) => !child.startsWith('--'))
      .map((child) => bodyText(child.replace(/^\r?\n/, '')))
      .join('\n');
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

/** A real SMTP server on loopback (plain, or with TLS when given a certificate) that keeps every message. */
export class MailCatcher {
  readonly mails: CapturedMail[] = [];
  readonly #server: SMTPServer;
  port = 0;

  constructor({ credentials, tls }: MailCatcherOptions = {}) {
    const disabled = [...(tls ? [] : ['STARTTLS']), ...(credentials ? [] : ['AUTH'])];
    this.#server = new SMTPServer({
      secure: tls?.implicit === true,
      key: tls?.key,
      cert: tls?.cert,
      disabledCommands: disabled,
      authOptional: !credentials,
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (credentials && auth.username === credentials.user && auth.password === credentials.pass) {
          callback(null, { user: auth.username });
        } else {
          callback(new Error('Invalid username or password'));
        }
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const { headers } = splitHeaders(raw);
          // smtp-server puts the TLS socket's getCipher() here (false without TLS), whatever the types say.
          const cipher = (session.tlsOptions || undefined) as { name?: string } | undefined;
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            subject: decodeHeader(headers.get('subject') ?? ''),
            body: bodyText(raw),
            raw,
            secure: session.secure,
            cipher: cipher?.name ?? '',
          });
          callback();
        });
      },
    });
    // A client that gives up on the certificate drops the connection; that is not the test's error.
    this.#server.on('error', () => undefined);
  }

  /** Listens on `host` and `port` (a free one by default); rejects when that port cannot be had. */
  async start(port = 0, host = '127.0.0.1'): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      this.#server.server.once('error', failed);
      this.#server.listen(port, host, () => {
        this.#server.server.off('error', failed);
        resolve();
      });
    });
    this.port = (this.#server.server.address() as AddressInfo).port;
    return this;
  }

  /** Mails sent to `address`, oldest first. */
  to(address: string): CapturedMail[] {
    return this.mails.filter((mail) => mail.to.includes(address));
  }

  /** Waits for a mail to `address` beyond the first `seen` ones (count them before the call that mails). */
  async next(address: string, seen: number, timeoutMs = 5_000): Promise<CapturedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.to(address)[seen];
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
