/** AI Proxy's knowledge-library API (https://docs.aiproxy.io/dev/library). */

export interface LibraryRequest {
  model: string;
  query: string;
  libraryId: string;
  stream: boolean;
}

export interface LibraryDocument {
  title?: string;
  url?: string;
}

export interface LibraryAnswer {
  success?: boolean;
  answer?: string;
  documents?: LibraryDocument[];
  errCode?: number;
  message?: string;
}

export interface LibraryStreamEvent {
  content?: string;
  finish?: boolean;
  model?: string;
  documents?: LibraryDocument[];
}
