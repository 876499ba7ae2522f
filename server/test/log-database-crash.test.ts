import { describeCrashUnderLoad } from './process/crash-scenario';

// The same kill with the logs in a database of their own: one log per settled call still.
describeCrashUnderLoad({ logDatabase: true });
