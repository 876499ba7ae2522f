/** Video generation jobs: a user's own, or everyone's for administrators. */
export const enVideos = {
  videos: {
    title: 'Video jobs',
    introUser:
      'Videos your keys asked for (OpenAI’s /v1/videos, Google’s Veo). A job’s price is held when it starts, charged when it completes and given back when it fails or expires.',
    introAdmin:
      'Every user’s video jobs. A job’s price is held when it starts, charged when it completes and given back when it fails or expires.',
    empty: 'No video jobs',
    emptyText: 'Jobs appear here once a key asks for a video.',
    refresh: 'Refresh',
    columns: {
      created: 'Created',
      user: 'User',
      token: 'Key',
      model: 'Model',
      status: 'State',
      progress: 'Progress',
      seconds: 'Length',
      size: 'Size',
      quota: 'Quota',
    },
    secondsValue: '{{count}} s',
    quotaHeld: '{{amount}} held',
    status: {
      queued: 'Queued',
      in_progress: 'In progress',
      completed: 'Completed',
      failed: 'Failed',
      expired: 'Expired',
    },
  },
};
