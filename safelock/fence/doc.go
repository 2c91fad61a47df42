// Package fence enforces fencing tokens where a write lands: in a SQL row
// (Table.Update, Table.Upsert) or a Redis key (SetRedis).
//
// # What a fence protects
//
// A lock lease can end while its holder still thinks it holds it: the
// process stops for a GC pause, a page fault, a slow disk or a long network
// hiccup; meanwhile the key expires and another client takes the lock. When
// the first holder wakes up, nothing on its side can tell it in time — a
// check of Lease.Done or of the key just before writing still leaves a
// window between the check and the write. Only the resource can refuse the
// late write. safelock gives every lease a fence (Lease.Fence) that is
// strictly greater than the fence of every earlier lease on the same key.
// The resource remembers the highest fence it has accepted and refuses
// writes that carry a lower one (or an equal one from another grant: see
// Equal fences). After holder B (fence 34) has written, holder A (fence 33)
// can no longer write, however late it wakes up. Every helper takes the
// writer's Grant: pass the *safelock.Lease, or Of(fence, token).
//
// # What it does not protect
//
//   - Writes that do not go through the check. Every writer of the
//     resource must pass its fence, on every write path.
//   - A stale write that lands before the new holder's first write: the
//     resource learns of fence 34 only when B writes. If A's late write
//     arrives before that, it is accepted, and B's write then follows it.
//     Make B's first action a fenced write (even one that only sets the
//     fence) if A's late write must not land after B took the lock.
//   - Reads. A stale holder may act on data it read before it lost the
//     lock; a fence only stops its writes. Do read-modify-write in one
//     fenced statement, or in a transaction that begins with the fenced
//     update.
//   - Fences that go backwards. safelock issues max(counter + 1, server
//     time in µs), so a lost counter (a restart without persistence, a
//     failover that loses the last writes) still gives a higher fence,
//     unless the issuing server's clock went back by more than the time
//     since the last fence. If it did, the lower fences are refused, and
//     writers are locked out until fences pass the highest one the
//     resource has seen. Fences from other issuers (plain INCR counters)
//     restart at 1 when their counter is lost.
//   - Side effects outside the resource: e-mails sent, other services
//     called. Fence those at their own receiver, or make them idempotent.
//
// # Equal fences
//
// A write whose fence equals the recorded one is accepted only from the same
// grant: the resource records the grant's token with its fence and compares
// both. A plain fence <= ? would rest on every fence being issued once, and
// that is not guaranteed: a plain INCR counter that restarts empty, or
// safelock's clock-based fences on servers whose clocks went back (with
// Redlock, two of three nodes restarted empty while the first lease still
// held the lock), can hand a second lease the fence of one that still
// holds the lock; both would pass <=. A plain fence < ? is safe but
// lets a grant write a row only once, and turns a retried write whose first
// attempt landed into a false "refused". With the token, the holder writes
// as often as it needs and a duplicate fence from another grant is refused.
// SQL tables opt in with Table.TokenColumn (without it the rule is strict
// <); SetRedis always records the token.
//
// # SQL
//
// Table names the table, its id, fence and (optional) token columns; the
// names are validated as plain identifiers before they go into the
// statement, and every value goes as an argument. Update is a portable
// UPDATE ... WHERE id = ? AND (fence < ? OR (fence = ? AND token = ?));
// Upsert adds insert-if-absent with INSERT ... ON CONFLICT (SQLite,
// PostgreSQL). Both take a *sql.DB, *sql.Tx or *sql.Conn, so the fenced
// write can be part of the caller's transaction, and report whether the row
// was written, from the rows-affected count of that one statement.
// Building the statement from names, rather than checking a statement the
// caller wrote, keeps the fence condition impossible to get wrong or leave
// out; callers that need more (joins, expressions) can copy the WHERE
// clause shown on Update.
//
// # Redis
//
// SetRedis writes a value and records the fence and token of its grant in
// a companion hash in the same hash slot, in one script, so it works on a
// single server and on Redis Cluster alike. The script source is exported
// as SetScript for redigo and rueidis users.
package fence
