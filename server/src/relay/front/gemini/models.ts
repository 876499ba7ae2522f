import type { Json } from '../../json-value';

/** What this gateway serves of Gemini's methods, for every model. */
const METHODS = ['generateContent', 'streamGenerateContent', 'countTokens'];

/** A model as Gemini's models.list and models.get answer it. */
export function geminiModel(id: string): Json {
  return {
    name: `models/${id}`,
    baseModelId: id,
    version: '001',
    displayName: id,
    description: `${id} through this gateway`,
    supportedGenerationMethods: METHODS,
  };
}
