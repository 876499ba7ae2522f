import type { VideoJobView } from '@switchyard/contract/videos';
import { useServerPages } from '../../../lib/list-queries';

/** Video jobs, pages of 10, newest first: everyone's for administrators (with the user), else one's own. */
export const useVideoJobPages = (everyone: boolean) =>
  useServerPages<VideoJobView>(
    ['videos', everyone ? 'all' : 'own'],
    everyone ? '/api/video/' : '/api/video/self',
  );
