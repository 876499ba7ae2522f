import { describeCrashUnderLoad } from './process/crash-scenario';

describeCrashUnderLoad();
