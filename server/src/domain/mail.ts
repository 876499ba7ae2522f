import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { DomainError } from './errors';
import type { OptionsStore } from './options';

// nodemailer is loaded with the first mail: most processes never send one, and it costs memory.
const loadNodemailer = () => createRequire(import.meta.url)('nodemailer') as typeof import('nodemailer');

export interface MailMessage {
  to: string;
  subject: string;
  /** HTML body; callers escape what they interpolate (escapeHtml). */
  html: string;
}

const IMPLICIT_TLS_PORT = 465;
const CONNECT_TIMEOUT_MS = 5_000;
const SOCKET_TIMEOUT_MS = 15_000;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);

const isLoopback = (host: string): boolean =>
  host === 'localhost' || (isIP(host) === 4 && host.startsWith('127.')) || host === '::1';

/**
 * Sends mail through the SMTP server of the options (SMTPServer, SMTPPort, SMTPAccount, SMTPToken,
 * SMTPFrom). Port 465 speaks TLS from the start; other ports upgrade with STARTTLS when the server
 * offers it, and must when a password would otherwise cross the network in the clear.
 */
export class Mailer {
  /** The certificate authorities an SMTP server's certificate must chain to. */
  readonly #ca: string[] | undefined;

  /**
   * `trustedCertificates` (PEM, SMTP_CA_FILE) are trusted besides Node's built-in roots, for a mail
   * server with a private CA or a self-signed certificate. The certificate is always verified.
   */
  constructor(
    private readonly options: OptionsStore,
    { trustedCertificates }: { trustedCertificates?: string } = {},
  ) {
    this.#ca = trustedCertificates ? [...rootCertificates, trustedCertificates] : undefined;
  }

  configured(): boolean {
    return this.options.get('SMTPServer').trim() !== '' && this.#sender() !== '';
  }

  /** Refuses up front, before a code is issued, when mail cannot be sent at all. */
  ensureConfigured(): void {
    if (!this.configured()) {
      throw new DomainError('mail_not_configured');
    }
  }

  async send(message: MailMessage): Promise<void> {
    this.ensureConfigured();
    const { options } = this;
    const host = options.get('SMTPServer').trim();
    const port = options.number('SMTPPort') || 587;
    const account = options.get('SMTPAccount').trim();
    const transport = loadNodemailer().createTransport({
      host,
      port,
      secure: port === IMPLICIT_TLS_PORT,
      requireTLS: port !== IMPLICIT_TLS_PORT && account !== '' && !isLoopback(host),
      auth: account ? { user: account, pass: options.get('SMTPToken') } : undefined,
      connectionTimeout: CONNECT_TIMEOUT_MS,
      greetingTimeout: CONNECT_TIMEOUT_MS,
      socketTimeout: SOCKET_TIMEOUT_MS,
      tls: this.#ca ? { ca: this.#ca } : undefined,
    });
    try {
      await transport.sendMail({
        from: { name: options.get('SystemName'), address: this.#sender() },
        to: message.to,
        subject: message.subject,
        html: message.html,
      });
    } catch (error) {
      // nodemailer's messages name the SMTP step that failed; they never carry the password.
      const reason = error instanceof Error ? error.message : String(error);
      throw new DomainError('mail_failed', { reason });
    } finally {
      transport.close();
    }
  }

  #sender(): string {
    return (this.options.get('SMTPFrom') || this.options.get('SMTPAccount')).trim();
  }
}
