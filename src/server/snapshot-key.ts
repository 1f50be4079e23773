/**
 * The key the service signs saved run states with (`CodeMode.make({ snapshotKey })`) and seals run rows with
 * (row-seal.ts), so a run altered in the database is refused instead of resumed. Replicas sharing one Postgres
 * must sign with the same key, and the key must not live in the database it protects: with `DATABASE_URL` it
 * comes from `CODEMODE_SNAPSHOT_KEY`. Without it the service still starts (a deploy that predates the key, or a
 * first try, must not be refused) but warns, and runs unsigned: a resumed state's limits are then capped by the
 * service's own, as the library does for unsigned states. The embedded mode (one process, a local folder)
 * generates one the first time and keeps it beside its database, so states saved before a restart still resume.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import type { ServerConfigShape } from "./config.ts"

export class SnapshotKeyMissing extends Data.TaggedError("SnapshotKeyMissing")<{ readonly detail: string }> {
  override get message(): string {
    return this.detail
  }
}

const MIN_BYTES = 16

/** Where the embedded mode keeps its generated key: next to its database folder, not inside it. */
export const keyFile = (pgliteDir: string): string => resolve(pgliteDir).replace(/\/+$/, "") + ".snapshot-key"

const generated = (file: string): string => {
  try {
    return readFileSync(file, "utf8").trim()
  } catch {
    mkdirSync(dirname(file), { recursive: true })
    const key = randomBytes(32).toString("base64url")
    try {
      writeFileSync(file, key + "\n", { mode: 0o600, flag: "wx" })
      return key
    } catch {
      // Another process wrote it first: its key is the one.
      return readFileSync(file, "utf8").trim()
    }
  }
}

/** The key, or undefined when the service runs unsigned; `snapshotKey` also warns about the latter. */
export const resolveSnapshotKey = (config: ServerConfigShape): Effect.Effect<string | undefined, SnapshotKeyMissing> =>
  Effect.suspend(() => {
    if (Option.isSome(config.snapshotKey)) {
      const key = Redacted.value(config.snapshotKey.value)
      return Buffer.byteLength(key) >= MIN_BYTES
        ? Effect.succeed(key)
        : Effect.fail(new SnapshotKeyMissing({ detail: `CODEMODE_SNAPSHOT_KEY must be at least ${MIN_BYTES} bytes long` }))
    }
    if (Option.isSome(config.databaseUrl)) return Effect.succeed(undefined)
    return Effect.sync(() => generated(keyFile(config.pgliteDir)))
  })

export const snapshotKey = (config: ServerConfigShape): Effect.Effect<string | undefined, SnapshotKeyMissing> =>
  Effect.tap(resolveSnapshotKey(config), (key) =>
    key === undefined
      ? Effect.logWarning(
          "CODEMODE_SNAPSHOT_KEY is not set: saved run states and run rows are not signed, so a run altered in the database is not detected (set the same key on every replica, e.g. `openssl rand -base64 32`)",
        )
      : Effect.void,
  )
