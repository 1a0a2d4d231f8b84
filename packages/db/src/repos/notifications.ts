import type { Db } from '../connect';
import { newId } from '../ids';
import type { Notification } from '../tables/notifications';

/** Leaves a notification, unread, for the pro (inside the caller's transaction). */
export async function insertNotification(trx: Db, n: { proId: string; bookingId: string | null; kind: string; message: string; now: Date }): Promise<void> {
  await trx
    .insertInto('notifications')
    .values({ id: newId('ntf'), pro_id: n.proId, booking_id: n.bookingId, kind: n.kind, message: n.message, created_at: n.now, read_at: null })
    .execute();
}

/** Returns the pro's unread notifications and marks them read, atomically. */
export async function takeUnreadNotifications(db: Db, proId: string, now: Date): Promise<Notification[]> {
  const rows = await db.updateTable('notifications').set({ read_at: now }).where('pro_id', '=', proId).where('read_at', 'is', null).returningAll().execute();
  return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
}
