import type { enVideos } from '../en/videos';
import type { Messages } from '../messages';

export const zhVideos: Messages<typeof enVideos> = {
  videos: {
    title: '视频任务',
    introUser:
      '你的令牌发起的视频生成（OpenAI 的 /v1/videos、Google 的 Veo）。任务开始时预扣其价格，完成时扣费，失败或过期时退还。',
    introAdmin: '所有用户的视频任务。任务开始时预扣其价格，完成时扣费，失败或过期时退还。',
    empty: '暂无视频任务',
    emptyText: '令牌发起视频生成后，任务会显示在这里。',
    refresh: '刷新',
    columns: {
      created: '创建时间',
      user: '用户',
      token: '令牌',
      model: '模型',
      status: '状态',
      progress: '进度',
      seconds: '时长',
      size: '尺寸',
      quota: '额度',
    },
    secondsValue: '{{count}} 秒',
    quotaHeld: '预扣 {{amount}}',
    status: {
      queued: '排队中',
      in_progress: '生成中',
      completed: '已完成',
      failed: '失败',
      expired: '已过期',
    },
  },
};
