import type { Updateable } from 'kysely';
import type { Sql } from '../connect';
import type { VideoJobRow, VideoJobsTable } from '../schema';

export function findVideoJob(db: Sql, id: string): Promise<VideoJobRow | undefined> {
  return db.kysely.selectFrom('video_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function deleteVideoJob(db: Sql, id: string): Promise<void> {
  await db.kysely.deleteFrom('video_jobs').where('id', '=', id).execute();
}

/** Records what the provider says of a job still running on its charge (a settled or refunded one is left alone). */
export async function updateRunningVideoJob(
  db: Sql,
  id: string,
  changes: Updateable<VideoJobsTable>,
): Promise<void> {
  await db.kysely
    .updateTable('video_jobs')
    .set(changes)
    .where('id', '=', id)
    .where('billing', '=', 'charged')
    .execute();
}

/** Jobs running on their charge, with an upstream job, not looked at since `seenBefore`: the oldest look first. */
export function listVideoJobsToPoll(db: Sql, seenBefore: number, limit: number): Promise<VideoJobRow[]> {
  return db.kysely
    .selectFrom('video_jobs')
    .selectAll()
    .where('billing', '=', 'charged')
    .where('upstream_id', '!=', '')
    .where('updated_at', '<', seenBefore)
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

/** Jobs running on their charge that were created before `createdBefore` (given up on: they expire). */
export function listOverdueVideoJobs(db: Sql, createdBefore: number, limit: number): Promise<VideoJobRow[]> {
  return db.kysely
    .selectFrom('video_jobs')
    .selectAll()
    .where('billing', '=', 'charged')
    .where('created_at', '<', createdBefore)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

export interface VideoJobListing {
  /** One user's jobs; all users' when absent. */
  userId?: number;
  /** Newest first (the default) or oldest first. */
  order: 'asc' | 'desc';
  /** Jobs after this one in that order. */
  after?: VideoJobRow;
  limit: number;
  offset?: number;
}

/** A page of jobs ordered by creation (then id). */
export function listVideoJobs(db: Sql, listing: VideoJobListing): Promise<VideoJobRow[]> {
  let query = db.kysely.selectFrom('video_jobs').selectAll();
  if (listing.userId !== undefined) query = query.where('user_id', '=', listing.userId);
  const { after, order } = listing;
  if (after) {
    const beyond = order === 'desc' ? '<' : '>';
    query = query.where((eb) =>
      eb.or([
        eb('created_at', beyond, after.created_at),
        eb.and([eb('created_at', '=', after.created_at), eb('id', beyond, after.id)]),
      ]),
    );
  }
  return query
    .orderBy('created_at', order)
    .orderBy('id', order)
    .limit(listing.limit)
    .offset(listing.offset ?? 0)
    .execute();
}
