/**
 * The `search(...)` built-in (spec "Discovery"): synchronous, always available, counted toward `maxToolCalls` and
 * recorded in `toolCalls` with the path `search`. It takes `search(query?, options?)` or `search({ query, ...options })`
 * and returns a plain page of results (search.ts).
 *
 * "Its result can be used directly, awaited, or chained with then, catch, and finally": the page carries
 * non-enumerable `then`/`catch`/`finally` methods that behave as on `Promise.resolve(page)`. They resolve with a
 * copy of the page *without* those methods — resolving with the page itself would find its `then` again and loop
 * forever. Being a global-object property, `search` is shadowed by any program declaration of the same name.
 */
import { CreateBuiltinFunction } from "../runtime/builtin.ts"
import { throwTypeError } from "../runtime/completion.ts"
import type { NativeImpl } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import { Call } from "../runtime/operations.ts"
import { FulfillPromise, NewIntrinsicPromiseCapability } from "../runtime/promise.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Value } from "../runtime/value.ts"
import { DataError, fromData, toData, type DataValue } from "./data.ts"
import { toolsHostOf } from "./sandbox-tools.ts"
import { search, SearchRequestError, type SearchRequest } from "./search.ts"

export const SEARCH_GLOBAL = "search"

/** The page as a plain object of its own enumerable data, which has no `then`. */
const settledCopy = (realm: Realm, page: Value): Value => {
  if (!(page instanceof JSObject)) return page
  const copy = new JSObject(realm.ObjectPrototype)
  for (const [key, p] of page.properties.entries()) {
    if (p.enumerable && !p.accessor) copy.properties.set(key, Property.data(p.value))
  }
  return copy
}

/** `method` of Promise.prototype, called on a promise already fulfilled with the page's copy. */
const promiseMethod = (method: "then" | "catch" | "finally"): NativeImpl =>
  function* (realm, thisArg, args) {
    const capability = NewIntrinsicPromiseCapability(realm)
    FulfillPromise(realm, capability.promise, settledCopy(realm, thisArg))
    return yield* Call(realm.intrinsic(`%Promise.prototype.${method}%`), capability.promise, args)
  }

const asOptional = (v: DataValue | undefined, name: string, type: "string" | "number"): string | number | undefined => {
  if (v === undefined || v === null) return undefined
  if (typeof v !== type) return throwTypeError(`search: ${name} must be a ${type}`)
  return v as string | number
}

/** `search(query?, options?)` or `search({ query, namespace, limit, offset })`, as a request. */
const parseArguments = (args: ReadonlyArray<Value>): SearchRequest => {
  let first: DataValue | undefined
  let second: DataValue | undefined
  try {
    first = toData(args[0])
    second = toData(args[1])
  } catch (e) {
    if (e instanceof DataError) return throwTypeError(`search: ${e.message}`)
    throw e
  }
  const fromObject = typeof first === "object" && first !== null && !Array.isArray(first)
  const options = fromObject ? first : second
  if (options !== undefined && options !== null && (typeof options !== "object" || Array.isArray(options))) {
    return throwTypeError("search: options must be an object")
  }
  const o = (options ?? {}) as { readonly [key: string]: DataValue }
  const query = fromObject ? o.query : first
  return {
    query: asOptional(query, "query", "string") as string | undefined,
    namespace: asOptional(o.namespace, "namespace", "string") as string | undefined,
    limit: asOptional(o.limit, "limit", "number") as number | undefined,
    offset: asOptional(o.offset, "offset", "number") as number | undefined,
  }
}

/** The page's `then`, `catch` and `finally`, as registered by `installSearch`. */
const RESULT_METHODS = ["then", "catch", "finally"] as const
const methodName = (m: (typeof RESULT_METHODS)[number]): string => `%codemode.search.result.${m}%`

/**
 * `search` reads the tool index and the ledger of the run whose realm calls it (`toolsHostOf`), so the function is
 * the same in every realm: the process's template realm holds it (realm-template.ts), and each run's fork twins it.
 */
const SEARCH: NativeImpl = (realm, _this, args) => {
  const request = parseArguments(args)
  const { index, ledger } = toolsHostOf(realm)
  let page
  try {
    page = search(index, request)
  } catch (e) {
    if (e instanceof SearchRequestError) return throwTypeError(e.message)
    throw e
  }
  ledger.admit(realm, SEARCH_GLOBAL)
  const result = fromData(realm, page) as JSObject
  for (const m of RESULT_METHODS) result.properties.set(m, Property.data(realm.intrinsic(methodName(m)), true, false, true))
  return result
}

export const installSearch = (realm: Realm): void => {
  // Registered in the realm as built-ins are, so a saved run refers to them by name (see sandbox-tools.ts).
  for (const m of RESULT_METHODS) realm.register(methodName(m), CreateBuiltinFunction(realm, `codemode.search.result.${m}`, promiseMethod(m), m === "then" ? 2 : 1, m))
  const f = CreateBuiltinFunction(realm, "codemode.search", SEARCH, 2, SEARCH_GLOBAL)
  realm.register("%codemode.search%", f)
  realm.globalObject.properties.set(SEARCH_GLOBAL, Property.data(f, true, false, true))
}
