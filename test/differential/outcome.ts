/**
 * The comparable shape of a run, `Outcome`, and the reductions that produce it. Only what both sides can report
 * is compared: the returned value as JSON, or a thrown value reduced to its error name. Error messages differ
 * between engines and are not part of the contract.
 */
import { isDeepStrictEqual } from "node:util"

export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

export type Outcome =
  | { readonly value: Json }
  | { readonly threw: string }
  | { readonly threw: "value"; readonly value: string }
  // Only our engine produces this: a diagnostic other than a program throw (ParseError, UnsupportedSyntax,
  // TimeoutExceeded...). It never equals an oracle outcome, so it always shows up as a difference.
  | { readonly engineError: string; readonly message: string }

/** A returned value as JSON sees it, `undefined` as `null` (the engine's REPL rule). Throws if not JSON-able. */
export const normalizeValue = (v: unknown): Json => {
  const text = JSON.stringify(v === undefined ? null : v)
  if (text === undefined) throw new TypeError(`returned value is not JSON-serializable (${typeof v})`)
  return JSON.parse(text) as Json
}

/** A thrown value: an object with a string `name` (an Error) by that name, anything else by its string form. */
export const normalizeThrown = (e: unknown): Outcome => {
  if (typeof e === "object" && e !== null) {
    let name: unknown
    try {
      name = (e as { name?: unknown }).name
    } catch {
      name = undefined
    }
    if (typeof name === "string") return { threw: name }
  }
  let text: string
  try {
    text = String(e)
  } catch {
    text = "<unprintable>"
  }
  return { threw: "value", value: text }
}

/** The part of `CodeMode.Result` the comparison reads. */
export type EngineResultLike =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: { readonly kind: string; readonly message: string } }

const UNCAUGHT = "Uncaught "

/**
 * Our engine's result in the oracle's shape. A program throw arrives as an `ExecutionFailure` whose message is
 * `"<name>: <message>"` (or just `"<name>"`) for Error objects and `"Uncaught <String(value)>"` for other values.
 */
export const normalizeEngineResult = (r: EngineResultLike): Outcome => {
  if (r.ok) return { value: normalizeValue(r.value) }
  const { kind, message } = r.error
  if (kind !== "ExecutionFailure") return { engineError: kind, message }
  if (message.startsWith(UNCAUGHT)) return { threw: "value", value: message.slice(UNCAUGHT.length) }
  const colon = message.indexOf(":")
  return { threw: colon === -1 ? message : message.slice(0, colon) }
}

export const sameOutcome = (a: Outcome, b: Outcome): boolean => isDeepStrictEqual(a, b)
