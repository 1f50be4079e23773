/**
 * events.seq and events.key (issue 15): each run's events are numbered 1, 2, 3 … in the order they commit, and
 * that number is the event's SSE id. A global sequence could not be: two transactions take ids in one order and
 * may commit in the other, so a reader following `id > cursor` could pass an event that was not committed yet.
 * The trigger numbers an event under a transaction-long lock per run, so the next number of a run is taken only
 * once the previous one committed (or rolled back, leaving no gap).
 *
 * `key` names what the program produced that the event reports (a log line by its index, a call's change by its
 * key): a replica that takes a run over re-runs it from its last saved state and produces those again, and the
 * unique (run_id, key) lets the store skip what the dead replica already wrote. Null for events that happen once
 * each time (run.created, run.recovered …). Events written before this migration are numbered in id order.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE events ADD COLUMN seq bigint, ADD COLUMN key text`
  yield* sql`
    UPDATE events SET seq = n.seq
    FROM (SELECT id, row_number() OVER (PARTITION BY run_id ORDER BY id) AS seq FROM events) n
    WHERE events.id = n.id`
  yield* sql`ALTER TABLE events ALTER COLUMN seq SET NOT NULL`
  yield* sql`ALTER TABLE events ADD CONSTRAINT events_run_seq UNIQUE (run_id, seq)`
  yield* sql`ALTER TABLE events ADD CONSTRAINT events_run_key UNIQUE (run_id, key)`
  yield* sql`DROP INDEX events_run`
  // 7715: this lock's namespace (the two-key form keeps it apart from any other advisory lock on a run's hash).
  // Each statement of a volatile function reads a fresh snapshot: max(seq) is read after the lock is held, and
  // sees the rows this same statement inserted before this one.
  yield* sql.unsafe(`
    CREATE FUNCTION events_number() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_advisory_xact_lock(7715, hashtext(NEW.run_id));
      SELECT coalesce(max(seq), 0) + 1 INTO NEW.seq FROM events WHERE run_id = NEW.run_id;
      RETURN NEW;
    END
    $$`)
  yield* sql`CREATE TRIGGER events_number BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION events_number()`
})
