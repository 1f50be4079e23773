/**
 * The value and function properties of the global object (https://tc39.es/ecma262/#sec-global-object): NaN,
 * Infinity, undefined, parseInt, parseFloat, isNaN, isFinite, the URI functions, escape/unescape (Annex B) and
 * `eval`, which refuses strings through HostEnsureCanCompileStrings (a non-string argument is returned as the spec
 * says). Arguments are converted with the spec's ToString/ToNumber (user code may run); the string algorithms
 * themselves are the host's, which are V8's and exact on strings.
 */
import { defineMethods, defineValues } from "../runtime/builtin.ts"
import { SandboxError } from "../runtime/completion.ts"
import { ToInt32, ToNumber, ToString } from "../runtime/conversions.ts"
import type { JSObject } from "../runtime/object.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import type { Value } from "../runtime/value.ts"
import { HostEnsureCanCompileStrings } from "./function.ts"

// https://tc39.es/ecma262/#sec-eval-x — PerformEval returns a non-string unchanged, and refuses to compile strings.
const Global_eval = (realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => {
  const x = args[0]
  if (typeof x !== "string") return x
  return HostEnsureCanCompileStrings(realm)
}

// https://tc39.es/ecma262/#sec-parseint-string-radix
function* Global_parseInt(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const inputString = yield* ToString(realm, args[0])
  const R = yield* ToInt32(realm, args[1])
  return parseInt(inputString, R)
}

// https://tc39.es/ecma262/#sec-parsefloat-string
function* Global_parseFloat(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  return parseFloat(yield* ToString(realm, args[0]))
}

// https://tc39.es/ecma262/#sec-isnan-number
function* Global_isNaN(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const num = yield* ToNumber(realm, args[0])
  return num !== num
}

// https://tc39.es/ecma262/#sec-isfinite-number
function* Global_isFinite(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  return Number.isFinite(yield* ToNumber(realm, args[0]))
}

/** The URI functions (https://tc39.es/ecma262/#sec-uri-handling-functions) over the host's exact Encode/Decode. */
const uriFunction = (op: (s: string) => string) =>
  function* (realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
    const s = yield* ToString(realm, args[0])
    try {
      return op(s)
    } catch {
      throw new SandboxError("URIError", "URI malformed")
    }
  }

const Global_decodeURI = uriFunction(decodeURI)
const Global_decodeURIComponent = uriFunction(decodeURIComponent)
const Global_encodeURI = uriFunction(encodeURI)
const Global_encodeURIComponent = uriFunction(encodeURIComponent)

// https://tc39.es/ecma262/#sec-escape-string
const UNESCAPED = /^[A-Za-z0-9@*_+\-./]$/
function* Global_escape(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const s = yield* ToString(realm, args[0])
  let R = ""
  for (let k = 0; k < s.length; k++) {
    const C = s[k]!
    if (UNESCAPED.test(C)) R += C
    else {
      const n = s.charCodeAt(k)
      R += n < 256 ? `%${n.toString(16).toUpperCase().padStart(2, "0")}` : `%u${n.toString(16).toUpperCase().padStart(4, "0")}`
    }
  }
  return R
}

// https://tc39.es/ecma262/#sec-unescape-string
function* Global_unescape(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const s = yield* ToString(realm, args[0])
  const hex = (t: string) => /^[0-9A-Fa-f]+$/.test(t)
  let R = ""
  for (let k = 0; k < s.length; k++) {
    let C = s[k]!
    if (C === "%") {
      if (k + 6 <= s.length && s[k + 1] === "u" && hex(s.slice(k + 2, k + 6))) {
        C = String.fromCharCode(parseInt(s.slice(k + 2, k + 6), 16))
        k += 5
      } else if (k + 3 <= s.length && hex(s.slice(k + 1, k + 3))) {
        C = String.fromCharCode(parseInt(s.slice(k + 1, k + 3), 16))
        k += 2
      }
    }
    R += C
  }
  return R
}

export const install = (realm: Realm): void => {
  const g = realm.globalObject
  defineValues(g, [
    ["NaN", NaN],
    ["Infinity", Infinity],
    ["undefined", undefined],
  ])
  // parseFloat and parseInt are shared with Number (number.ts makes and registers them first); made here only
  // if that family did not.
  for (const [name, impl, length] of [
    ["parseFloat", Global_parseFloat, 1],
    ["parseInt", Global_parseInt, 2],
  ] as const) {
    const shared = realm.findIntrinsic(`%${name}%`)
    if (shared !== undefined) g.properties.set(name, Property.data(shared, true, false, true))
    else defineMethods(realm, g, "%GlobalObject%", [[name, impl, length]])
  }
  defineMethods(realm, g, "%GlobalObject%", [
    ["decodeURI", Global_decodeURI, 1],
    ["decodeURIComponent", Global_decodeURIComponent, 1],
    ["encodeURI", Global_encodeURI, 1],
    ["encodeURIComponent", Global_encodeURIComponent, 1],
    ["escape", Global_escape, 1],
    ["unescape", Global_unescape, 1],
    ["eval", Global_eval, 1],
    ["isFinite", Global_isFinite, 1],
    ["isNaN", Global_isNaN, 1],
  ])
  // The spec names these %parseInt%, %eval%... as well.
  for (const name of ["parseFloat", "parseInt", "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "eval", "isFinite", "isNaN"]) {
    if (!realm.ownIntrinsics.has(`%${name}%`)) realm.register(`%${name}%`, g.properties.get(name)!.value as JSObject)
  }
}
