import { useQuery } from '@tanstack/react-query';
import { fetchData } from '../../../lib/api-client';

/** GET /api/home_page_content: Markdown/HTML, a URL, or "" for the default home. */
export function useHomePageContent() {
  return useQuery({
    queryKey: ['content', 'home'],
    queryFn: () => fetchData<string>('/api/home_page_content').then((text) => text ?? ''),
  });
}

/** GET /api/about: Markdown/HTML, a URL, or "". */
export function useAboutContent() {
  return useQuery({
    queryKey: ['content', 'about'],
    queryFn: () => fetchData<string>('/api/about').then((text) => text ?? ''),
  });
}
