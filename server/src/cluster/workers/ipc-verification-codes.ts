import type { CodePurpose, VerificationCodes } from '../../domain/verification-codes';
import type { PrimaryLink } from './primary-link';

/** A worker's mailed codes without Redis: kept by the primary, so any worker takes a code another mailed. */
export class IpcVerificationCodes implements VerificationCodes {
  constructor(private readonly link: PrimaryLink) {}

  issue(purpose: CodePurpose, email: string, length?: number): Promise<string> {
    return this.link.call({ op: 'issue', purpose, email, length });
  }

  verify(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    return this.link.call({ op: 'verify', purpose, email, code });
  }

  /** One step in the primary (its map is checked and updated without a wait in between). */
  redeem(purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    return this.link.call({ op: 'redeem', purpose, email, code });
  }

  async discard(purpose: CodePurpose, email: string): Promise<void> {
    await this.link.call({ op: 'discard', purpose, email });
  }

  async close(): Promise<void> {}
}
