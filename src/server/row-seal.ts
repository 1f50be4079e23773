/**
 * Sealed run rows. The library signs a saved state's bytes (snapshot-key.ts), but what a resumed run does and may
 * touch is also decided by its row: its code and limits (a run continued from its code, or replayed when this
 * build cannot read its state), its tenant and `tools` filter (which tools it is bound to), its seed, its id (the
 * keys of its calls), and where a fork came from (`forked_from`: a fork is never replayed from its code, so moving it
 * would let its code repeat the calls it was forked to skip). Anyone who can write the database could change those, or move one run's validly signed
 * state into another run's row. So the service seals each row it writes for a run that may execute again (not a
 * run stored whole once it has ended, which never does, and unsealed never could): one HMAC-SHA-256, under a key derived
 * from the snapshot key, over a canonical encoding of those fields followed (when the run has one) by its saved
 * state's bytes. A row is checked every time the service takes it to execute it — a resume, a wake, a takeover —
 * and a checkpoint kept for forks is sealed the same way, under its run's fields. A row whose seal does not match
 * (or that has none while a key is set) is refused (`RowRefused`) and the run fails saying so; it is never
 * executed nor replayed.
 *
 * Seals are versioned: `v2.` covers `forked_from`, `v1.` (rows sealed before it was covered) does not and is still
 * accepted, so those rows stay readable; the next state the service saves for such a run seals it as `v2.`.
 *
 * What a seal cannot tell: an older genuine state of the same run from its latest (a rollback), and the call
 * journal (`calls`), whose outcomes come from the tools. Without a key nothing is sealed nor checked.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto"
import type { Limits } from "./api.ts"
import type { ForkedFrom } from "./store/runs.ts"
import { canonical } from "./canonical.ts"
import { ServerConfig } from "./config.ts"
import { storable } from "./json-guard.ts"
import { resolveSnapshotKey, type SnapshotKeyMissing } from "./snapshot-key.ts"

/** The fields of a run row that shape what its execution does or may touch. */
export interface SealedFields {
  readonly id: string
  readonly tenant: string
  readonly code: string
  readonly limits: Limits
  readonly tools: ReadonlyArray<string> | null
  readonly seed: string | null
  /** Where a fork came from; absent or null for a run made from its code. */
  readonly forkedFrom?: ForkedFrom | null | undefined
}

/** A run row the service will not execute: it was changed outside the service (or sealed under another key). */
export class RowRefused extends Data.TaggedError("RowRefused")<{ readonly id: string; readonly detail: string }> {
  override get message(): string {
    return `The run's stored row was refused: ${this.detail}`
  }
}

const VERSION = "v2."
/** Seals made before `forked_from` was sealed: checked over the fields they covered. */
const VERSION_1 = "v1."

/**
 * The sealed bytes: the fields as canonical JSON (as the database gives them back: `storable` text), then, for a
 * row with a saved state, a NUL byte and the state. JSON text has no raw NUL, so the two parts cannot run together.
 */
const sealedBytes = (fields: SealedFields, state: Uint8Array | undefined, version: 1 | 2): ReadonlyArray<Uint8Array> => {
  const { id, tenant, code, limits, tools, seed } = fields
  // Keys in order: `canonical` then copies no more than `limits`.
  const covered = version === 1 ? { code, id, limits, seed, tenant, tools } : { code, forkedFrom: fields.forkedFrom ?? null, id, limits, seed, tenant, tools }
  // `storable` changes only text that JSON writes with a `\u` escape: without one, its own JSON.stringify of the
  // fields (a whole second pass over the code) would find nothing to change.
  const text = canonical(covered)
  const head = Buffer.from(text.includes("\\u") ? canonical(storable(covered)) : text, "utf8")
  return state === undefined ? [head] : [head, Buffer.of(0), state]
}

export class RowSeal extends Context.Service<
  RowSeal,
  {
    /** The seal of a row with these fields and (when it has one) this saved state; null without a key. */
    readonly seal: (fields: SealedFields, state?: Uint8Array) => string | null
    /** Succeeds when `seal` is the row's seal (always, without a key). */
    readonly check: (fields: SealedFields, state: Uint8Array | undefined, seal: string | null) => Effect.Effect<void, RowRefused>
  }
>()("codemode/server/RowSeal") {
  /** Seals under `snapshotKey` (none: nothing is sealed nor checked). */
  static readonly make = (snapshotKey: string | undefined): RowSeal["Service"] => {
    if (snapshotKey === undefined) return RowSeal.of({ seal: () => null, check: () => Effect.void })
    // Its own key: a seal and a snapshot signature can never stand for each other. A KeyObject, made once: given
    // bytes, createHmac would make one per seal (a third of a seal's time).
    const key = createSecretKey(createHmac("sha256", snapshotKey).update("codemode run row seal").digest())
    const mac = (fields: SealedFields, state: Uint8Array | undefined, version: 1 | 2) => {
      const h = createHmac("sha256", key)
      for (const part of sealedBytes(fields, state, version)) h.update(part)
      return h.digest()
    }
    const seal = (fields: SealedFields, state?: Uint8Array) => VERSION + mac(fields, state, 2).toString("base64url")
    const check = (fields: SealedFields, state: Uint8Array | undefined, given: string | null) =>
      Effect.suspend(() => {
        if (given === null) return Effect.fail(new RowRefused({ id: fields.id, detail: "it is not sealed, and this service seals every run it stores" }))
        const version = given.startsWith(VERSION) ? 2 : given.startsWith(VERSION_1) ? 1 : undefined
        const expected = version === undefined ? Buffer.alloc(32) : mac(fields, state, version)
        const bytes = version === undefined ? Buffer.alloc(0) : Buffer.from(given.slice(VERSION.length), "base64url")
        return bytes.length === expected.length && timingSafeEqual(bytes, expected)
          ? Effect.void
          : Effect.fail(
              new RowRefused({
                id: fields.id,
                detail: "its seal does not match: its code, limits, tools, seed, tenant, origin (forked_from) or saved state were changed outside the service, or it was sealed with another key",
              }),
            )
      })
    return RowSeal.of({ seal, check })
  }

  /** Seals under the service's snapshot key (snapshot-key.ts). */
  static readonly layer: Layer.Layer<RowSeal, SnapshotKeyMissing, ServerConfig> = Layer.effect(
    RowSeal,
    Effect.gen(function* () {
      return RowSeal.make(yield* resolveSnapshotKey(yield* ServerConfig))
    }),
  )
}
