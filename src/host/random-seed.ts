/**
 * The seed of a run's `Math.random` (spec "Runs"): a string, chosen by the host for a reproducible run or drawn
 * at random for each new run. It becomes the four 32-bit words of the generator's state (intrinsics/math.ts), which
 * live in the realm and so are saved with a suspended run: a resumed run continues its own sequence.
 */
import { hash, randomBytes } from "node:crypto"
import { RANDOM_SEED, type Realm } from "../runtime/realm.ts"

/** A fresh seed, for a run that was given none. */
export const randomSeed = (): string => randomBytes(16).toString("base64url")

/** Seeds the realm's Math.random; a host-chosen seed must be a non-empty string. */
export const seedRealm = (realm: Realm, seed: string): void => {
  if (typeof seed !== "string" || seed === "") throw new TypeError("seed must be a non-empty string")
  // One-shot: a Hash object is a stream transform, ~2 us more per run to set up than the hash itself costs.
  const digest = hash("sha256", seed, "buffer")
  const state = [0, 4, 8, 12].map((i) => digest.readUInt32BE(i))
  // xorshift128+ never leaves the all-zero state.
  realm.randomState = state.every((w) => w === 0) ? [...RANDOM_SEED] : state
}
