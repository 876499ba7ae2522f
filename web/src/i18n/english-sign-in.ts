import { enAuth } from './en/auth';
import { enShell } from './en/shell';

/** The English the shell and the sign-in pages need: loaded before the first render. */
export const englishSignIn = { ...enShell, ...enAuth };
