import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');
const uint32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
};

/** Flags of authenticator data: user present, user verified, attested credential data included. */
const UP_UV = 0x05;
const UP_UV_AT = 0x45;

/**
 * A passkey as a browser's authenticator makes and uses it (WebAuthn level 2): an ES256 key pair,
 * "none" attestation, and a signature count that rises with each use. It answers what the browser's
 * navigator.credentials.create/get would, in the JSON shape the console sends.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  readonly #keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  #counter = 0;

  constructor(
    private readonly rpId: string,
    private readonly origin: string,
  ) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  register(options: { challenge: string }): RegistrationResponseJSON {
    const clientData = this.#clientData('webauthn.create', options.challenge, this.origin);
    const jwk = this.#keys.publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y ?? '', 'base64url'))],
    ]);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(this.rpId),
      Buffer.from([UP_UV_AT]),
      uint32(this.#counter),
      Buffer.alloc(16),
      length,
      this.credentialId,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestation = isoCBOR.encode(
      new Map<string, string | Map<string, never> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        attestationObject: b64url(attestation),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** Signs a sign-in's challenge, as seen from `origin` (the console's, unless a test says otherwise). */
  sign(options: { challenge: string }, origin = this.origin): AuthenticationResponseJSON {
    this.#counter += 1;
    const clientData = this.#clientData('webauthn.get', options.challenge, origin);
    const authData = Buffer.concat([sha256(this.rpId), Buffer.from([UP_UV]), uint32(this.#counter)]);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.#keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
      },
      clientExtensionResults: {},
    };
  }

  #clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }
}
