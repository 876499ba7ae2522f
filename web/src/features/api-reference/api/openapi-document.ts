import { useQuery } from '@tanstack/react-query';
import { buildUrl } from '../../../lib/api-client';

/** The parts of the OpenAPI document the reference page reads. */
export interface OpenApiOperation {
  tags?: string[];
  summary?: string;
  /** The summary in Chinese (the document's own wording is English, for tools). */
  'x-summary-zh'?: string;
  'x-access'?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string; 'x-description-zh'?: string };
  tags?: Array<{ name: string; 'x-name-zh'?: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, unknown> };
}

export const OPENAPI_PATH = '/api/openapi.json';

/** The server's OpenAPI document (a plain JSON file, not the envelope). */
export function useOpenApiDocument() {
  return useQuery({
    queryKey: ['openapi'],
    queryFn: async () => {
      const response = await fetch(buildUrl(OPENAPI_PATH));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return (await response.json()) as OpenApiDocument;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}
