/**
 * The price of a GPT image model's image input tokens as a fraction of its text input price (the
 * model ratio): OpenAI lists gpt-image-1's image input at $10 per 1M tokens against $5 for text, and
 * gpt-image-1-mini's at $2.50 against $2. Every other model bills image input as ordinary prompt tokens.
 */
const IMAGE_INPUT_RATIOS: Readonly<Record<string, number>> = {
  'gpt-image-1': 2,
  'gpt-image-1-mini': 1.25,
};

/** What one image input token costs in text input tokens of the same model; 1 for most models. */
export function resolveImageInputRatio(model: string): number {
  return Object.hasOwn(IMAGE_INPUT_RATIOS, model) ? (IMAGE_INPUT_RATIOS[model] ?? 1) : 1;
}
