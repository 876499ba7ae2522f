import { trimBaseUrl } from '@switchyard/contract/base-url';
import type { OptionsStore } from './options';

const DEFAULT_SERVER_ADDRESS = 'http://localhost:3000';

/** Where the console is reached (ServerAddress): the base of every link the server mails or reports. */
export const serverAddress = (options: OptionsStore): string =>
  trimBaseUrl(options.get('ServerAddress')) || DEFAULT_SERVER_ADDRESS;
