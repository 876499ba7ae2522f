import type { englishSignIn } from './english-sign-in';
import type { Messages } from './messages';
import { zhAuth } from './zh/auth';
import { zhShell } from './zh/shell';

/** The Chinese the shell and the sign-in pages need: loaded before the first render. */
export const chineseSignIn: Messages<typeof englishSignIn> = { ...zhShell, ...zhAuth };
