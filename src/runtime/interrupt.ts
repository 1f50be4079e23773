/**
 * Time limits inside one step. The run loops check the time between slices of steps, and a step is a call or a
 * backward jump of program code; a built-in whose loop runs as often as the program asks without calling program
 * code (reversing an array whose length is 2^32 - 1, `JSON.stringify` of a graph of shared objects, `indexOf` on
 * `{ length: 2 ** 53 - 1 }`) is a single step however long it takes. Such loops call `PollInterrupt` once per
 * iteration; every `POLL_INTERVAL` calls it asks the host (`RealmHost.interrupt`), which throws a Termination once
 * the time limit has passed, so `timeoutMs` ends the run as it ends a busy loop.
 */
import { chargeString } from "./memory.ts"
import type { Realm } from "./realm.ts"

/** Iterations between two questions to the host: well under a millisecond of the cheapest loop. */
const POLL_INTERVAL = 4096

/** `work`: in iterations of a cheap loop; a piece of work on a string counts one per 256 code units. */
export const PollInterrupt = (realm: Realm, work = 1): void => {
  realm.pollCountdown -= work
  if (realm.pollCountdown > 0) return
  realm.pollCountdown = POLL_INTERVAL
  realm.host.interrupt?.()
}

/** Strings shorter than this are not worth weighing. */
const LONG_STRING = 1 << 16

/**
 * A built-in call is one step however long the strings it reads or makes (`s.toUpperCase()`, `s.indexOf(x)` on
 * 2^27 code units take a tenth of a second): engines weigh each built-in call by its receiver, first argument and
 * result, so a loop of such calls reaches the time check long before the end of its slice of steps.
 */
export const PollStringWork = (realm: Realm, thisArg: unknown, first: unknown, result: unknown): void => {
  // Every string a built-in returns is charged as new (a sliced or unchanged one costs less: an over-estimate).
  if (typeof result === "string") chargeString(result.length)
  if (typeof thisArg === "string" && thisArg.length > LONG_STRING) PollInterrupt(realm, thisArg.length >>> 8)
  if (typeof first === "string" && first.length > LONG_STRING) PollInterrupt(realm, first.length >>> 8)
  if (typeof result === "string" && result.length > LONG_STRING) PollInterrupt(realm, result.length >>> 8)
}

/** The realm whose slice is running: for work charged where no realm is at hand (BigInt arithmetic, byte copies). */
let running: Realm | undefined

/** `PollInterrupt` for the run executing now, from code that has no realm (`work` as there). */
export const PollWork = (work: number): void => {
  if (running !== undefined) PollInterrupt(running, work)
}

/** Runs `f` (one slice of `realm`'s run) with `PollWork` charging it. */
export const runPolled = <A>(realm: Realm, f: () => A): A => {
  const outer = running
  running = realm
  try {
    return f()
  } finally {
    running = outer
  }
}

/**
 * Comparing two distinct strings of equal length (`===`, a property or Map key) reads both whole: a long string
 * used so is weighed by its length, as a built-in call is.
 */
export const PollCompare = (s: unknown): void => {
  if (typeof s === "string" && s.length >= LONG_STRING) PollWork(s.length >>> 8)
}
