/**
 * A run's log lines written while it runs (the 100 ms flusher) reach the events table even when the run ends while
 * that write is still under way: the flush takes the lines out of the run before its statement, and the run's end
 * interrupts the flusher, so an interruptible flush lost them (seen in client.test.ts under load). The database is made slow for log events only, by a trigger of this test's
 * own database, so the run's end is sure to come while the flusher's insert is waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabase, request, sqlOn, startReplica, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica

beforeAll(async () => {
  db = await createDatabase()
  server = await startReplica({ databaseUrl: db.url })
  await sqlOn(db.url, "CREATE FUNCTION slow_log() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(1.5); RETURN NEW; END $$")
  await sqlOn(db.url, "CREATE TRIGGER slow_log BEFORE INSERT ON events FOR EACH ROW WHEN (NEW.type = 'log') EXECUTE FUNCTION slow_log()")
})

afterAll(async () => {
  await server?.close()
  await db?.drop()
})

const eventTypes = async (id: string): Promise<Array<string>> =>
  (await sqlOn<{ type: string }>(db.url, "SELECT type FROM events WHERE run_id = $1 ORDER BY seq", [id])).map((r) => r.type)

describe("log lines being written when the run ends", () => {
  it("are written before the run's end, not dropped with the interrupted flusher", async () => {
    // Long enough for the flusher (every 100 ms) to take the line and start its insert, far shorter than the insert.
    const code = "console.log('early'); let n = 0; const until = Date.now() + 400; while (Date.now() < until) n++; return 'done'"
    const created = await request(server.url, "POST", "/v1/runs", { code, wait: true })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ status: "succeeded", result: { ok: true, value: "done", logs: ["early"] } })
    expect(await eventTypes(created.body.id)).toStrictEqual(["run.created", "log", "run.succeeded"])
  }, 20_000)
})
