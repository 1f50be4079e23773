/**
 * Fewer index entries and no trigger work per short run (issue 20): every run writes a runs row and at least two
 * events, and their indexes were most of a short run's WAL.
 *
 * - events.id goes, with its primary key: nothing reads it (a run's events are read by (run_id, seq), the SSE id),
 *   and (run_id, seq), unique and not null, already names each event.
 * - runs.seq keeps its sequence but loses its unique index: every query that orders or pages by it names the tenant
 *   (runs_tenant_seq, runs_tenant_status_seq), and a sequence does not repeat a value.
 * - events.key's unique index holds only the events that have a key: most events (a run's created, resumed, ended …)
 *   have none, and a null key never clashes. Writes that skip a keyed event already written name the index's
 *   predicate (`ON CONFLICT (run_id, key) WHERE key IS NOT NULL`).
 * - The numbering trigger (0011) runs only for events written without a number. A statement that creates a run
 *   numbers that run's events itself (1, 2, 3 …): nobody else can write events of a run before it commits, so the
 *   lock and the max(seq) read per event were for nothing there.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE events DROP COLUMN id`
  yield* sql`CREATE UNIQUE INDEX events_run_key_given ON events (run_id, key) WHERE key IS NOT NULL`
  yield* sql`ALTER TABLE events DROP CONSTRAINT events_run_key`
  yield* sql`ALTER TABLE runs DROP CONSTRAINT runs_seq_key`
  yield* sql`DROP TRIGGER events_number ON events`
  yield* sql`CREATE TRIGGER events_number BEFORE INSERT ON events FOR EACH ROW WHEN (NEW.seq IS NULL) EXECUTE FUNCTION events_number()`
})
