import { useState } from 'react';

/** A list's search box: what is typed, and the keyword last submitted (empty = not searching). */
export interface KeywordSearch {
  input: string;
  setInput: (value: string) => void;
  keyword: string;
  searching: boolean;
  /** Searches for what is typed (trimmed); an empty box goes back to the paged list. */
  submit: () => void;
  clear: () => void;
}

export function useKeywordSearch(): KeywordSearch {
  const [input, setInput] = useState('');
  const [keyword, setKeyword] = useState('');
  return {
    input,
    setInput,
    keyword,
    searching: keyword !== '',
    submit: () => setKeyword(input.trim()),
    clear: () => {
      setKeyword('');
      setInput('');
    },
  };
}
