import { trimBaseUrl } from '@switchyard/contract/base-url';
import { DEFAULT_SERVER_ADDRESS } from '@switchyard/contract/status';
import type { OptionsStore } from './options';

/** Where the console is reached (ServerAddress): the base of every link the server mails or reports. */
export const serverAddress = (options: OptionsStore): string =>
  trimBaseUrl(options.get('ServerAddress')) || DEFAULT_SERVER_ADDRESS;
