import { parseModelMapping } from '@switchyard/contract/channels';

const mappings = new Map<string, Record<string, string>>();

/** A channel's model mapping, parsed once per distinct text (an invalid one maps nothing). */
export function modelMappingOf(text: string | null): Record<string, string> {
  const key = text ?? '';
  let mapping = mappings.get(key);
  if (!mapping) {
    const parsed = parseModelMapping(key);
    mapping = 'mapping' in parsed ? parsed.mapping : {};
    if (mappings.size > 1000) mappings.clear();
    mappings.set(key, mapping);
  }
  return mapping;
}
