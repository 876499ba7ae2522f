import type { GeminiDefaults } from '../../../config/operations';
import type { GeminiSafetySetting } from './wire';

const HARM_CATEGORIES = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
];

const safetySettingsAt = (threshold: string): GeminiSafetySetting[] =>
  HARM_CATEGORIES.map((category) => ({ category, threshold }));

/**
 * GEMINI_VERSION and GEMINI_SAFETY_SETTING, set once at start (configureGemini): the adaptors are
 * plain modules, and these two settings are the whole process's.
 */
let version: string | undefined;
/** A gateway leaves moderation to the operator: by default Google's filters are off for every category. */
let safetySettings = safetySettingsAt('BLOCK_NONE');

export function configureGemini(defaults: GeminiDefaults): void {
  version = defaults.version;
  safetySettings = safetySettingsAt(defaults.safetyThreshold);
}

/** GEMINI_VERSION: the API version for channels that do not set theirs (undefined: by model). */
export const configuredGeminiVersion = (): string | undefined => version;

/** The safetySettings of every translated call (GEMINI_SAFETY_SETTING for each harm category). */
export const geminiSafetySettings = (): GeminiSafetySetting[] => safetySettings;
