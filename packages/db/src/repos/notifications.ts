import type { Db } from '../connect';
import { newId } from '../ids';
import { cteOf, writeLater } from '../write-batch';
import type { Notification } from '../tables/notifications';

/** Leaves a notification, unread, for the pro (inside the caller's transaction). */
export async function insertNotification(trx: Db, n: { proId: string; bookingId: string | null; kind: string; message: string; now: Date }): Promise<void> {
  await writeLater(
    trx,
    cteOf(
      trx
        .insertInto('notifications')
        .values({ id: newId('ntf'), pro_id: n.proId, booking_id: n.bookingId, kind: n.kind, message: n.message, created_at: n.now, read_at: null }),
    ),
  );
}

/** Returns the pro's unread notifications and marks them read, atomically. */
export async function takeUnreadNotifications(db: Db, proId: string, now: Date): Promise<Notification[]> {
  const rows = await db.updateTable('notifications').set({ read_at: now }).where('pro_id', '=', proId).where('read_at', 'is', null).returningAll().execute();
  return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
}

/** The pro's notifications not yet dismissed on the dashboard, oldest first (the assistant's reads leave them). */
export async function unseenOnDashboard(db: Db, proId: string, limit = 50): Promise<Notification[]> {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('pro_id', '=', proId)
    .where('dashboard_seen_at', 'is', null)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** Marks the named notifications of the pro seen on the dashboard; another pro's ids change nothing. */
export async function markSeenOnDashboard(db: Db, proId: string, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('notifications')
    .set({ dashboard_seen_at: now })
    .where('pro_id', '=', proId)
    .where('id', 'in', ids)
    .where('dashboard_seen_at', 'is', null)
    .execute();
}

/** The pro's latest notifications, read or not, newest first: what happened lately. */
export async function recentNotifications(db: Db, proId: string, limit = 20): Promise<Notification[]> {
  return db.selectFrom('notifications').selectAll().where('pro_id', '=', proId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
