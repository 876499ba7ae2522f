import type { Language } from '../../../i18n/i18n';
import type { OpenApiDocument, OpenApiOperation } from '../api/openapi-document';

export interface ListedOperation {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

/** The document's operations grouped by their first tag, in the document's tag order. */
export function operationsByTag(document: OpenApiDocument): Array<[string, ListedOperation[]]> {
  const groups = new Map<string, ListedOperation[]>((document.tags ?? []).map((tag) => [tag.name, []]));
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const tag = operation.tags?.[0] ?? '';
      groups.set(tag, [...(groups.get(tag) ?? []), { method: method.toUpperCase(), path, operation }]);
    }
  }
  return [...groups].filter(([, operations]) => operations.length > 0);
}

const REF_PREFIX = '#/components/schemas/';

/** A schema with its `$ref`s to components replaced by the schemas they name (cycles left as refs). */
export function resolveSchema(document: OpenApiDocument, schema: unknown, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((item) => resolveSchema(document, item, seen));
  if (typeof schema !== 'object' || schema === null) return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith(REF_PREFIX)) {
    const name = ref.slice(REF_PREFIX.length);
    const target = document.components?.schemas?.[name];
    return target === undefined || seen.includes(name)
      ? schema
      : resolveSchema(document, target, [...seen, name]);
  }
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, resolveSchema(document, value, seen)]),
  );
}

/** The document's texts in the console's language: Chinese where the document carries it, else English. */
export const wordingIn = (language: Language) => ({
  intro: (document: OpenApiDocument) =>
    (language === 'zh' && document.info['x-description-zh']) || document.info.description || '',
  tag: (document: OpenApiDocument, name: string) =>
    (language === 'zh' && document.tags?.find((tag) => tag.name === name)?.['x-name-zh']) || name,
  summary: (operation: OpenApiOperation) =>
    (language === 'zh' && operation['x-summary-zh']) || operation.summary || '',
});

/** Filters operations by a text in their path or summary in either language (case-insensitive). */
export const matchesFilter = (item: ListedOperation, filter: string): boolean => {
  const text = filter.trim().toLowerCase();
  const { summary = '', 'x-summary-zh': chinese = '' } = item.operation;
  return !text || `${item.method} ${item.path} ${summary} ${chinese}`.toLowerCase().includes(text);
};
