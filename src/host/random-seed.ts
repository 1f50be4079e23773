/**
 * The seed of a run's `Math.random` (spec "Runs"): a string chosen by the host for a reproducible run, or random
 * words for each new run. It becomes the four 32-bit words of the generator's state (intrinsics/math.ts), which
 * live in the realm and so are saved with a suspended run: a resumed run continues its own sequence.
 */
import { hash, randomFillSync } from "node:crypto"
import { RANDOM_SEED, type Realm } from "../runtime/realm.ts"

/**
 * Fresh words for runs given no seed, drawn from the CSPRNG in bulk (one call per 64 runs, as Node buffers the
 * bytes of randomUUID): such a run's seed is never seen, so its state is drawn directly, with no seed string to hash.
 */
const pool = new Uint32Array(256)
let next = pool.length

/**
 * `make`'s `seed`: a non-empty string, or none (undefined, or null as JavaScript callers write "none"); anything else
 * is a TypeError at `make`, as a bad option is, not a failure of each run.
 */
export const checkSeed = (seed: unknown): string | undefined => {
  if (seed === undefined || seed === null) return undefined
  if (typeof seed !== "string" || seed === "") throw new TypeError("seed must be a non-empty string")
  return seed
}

/**
 * Seeds the realm's Math.random: from `seed`, a host-chosen non-empty string (`checkSeed` has checked it where it
 * was given), or with fresh random words when there is none.
 */
export const seedRealm = (realm: Realm, seed: string | undefined): void => {
  let state: number[]
  if (seed === undefined) {
    if (next === pool.length) {
      randomFillSync(pool)
      next = 0
    }
    state = Array.from(pool.subarray(next, (next += 4)))
  } else {
    // One-shot: a Hash object is a stream transform, ~2 us more per run to set up than the hash itself costs.
    const digest = hash("sha256", seed, "buffer")
    state = [0, 4, 8, 12].map((i) => digest.readUInt32BE(i))
  }
  // xorshift128+ never leaves the all-zero state.
  realm.randomState = state.every((w) => w === 0) ? [...RANDOM_SEED] : state
}
