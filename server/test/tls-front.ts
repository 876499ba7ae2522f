import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

/** A self-signed certificate for 127.0.0.1, made with the openssl command. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tls-front-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A TLS terminator in front of a plain server, as a deployment puts one: for clients that insist on
 * https and wss (the openai package's realtime client does). `cert` is what they must trust.
 */
export async function tlsFront(target: URL): Promise<{ url: string; cert: string; close(): Promise<void> }> {
  const { key, cert } = selfSignedCertificate();
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ key, cert }, (secure) => {
    const plain = net.connect(Number(target.port), target.hostname);
    sockets.add(secure).add(plain);
    secure.pipe(plain).pipe(secure);
    const drop = () => {
      secure.destroy();
      plain.destroy();
    };
    secure.on('error', drop).on('close', drop);
    plain.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cert,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
