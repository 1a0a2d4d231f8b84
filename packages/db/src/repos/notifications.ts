import type { Db } from '../connect';
import type { Notification } from '../tables/notifications';

/** Returns the pro's unread notifications and marks them read, atomically. */
export async function takeUnreadNotifications(db: Db, proId: string, now: Date): Promise<Notification[]> {
  const rows = await db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('pro_id', '=', proId)
    .where('read_at', 'is', null)
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
}
