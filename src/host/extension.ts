/**
 * `Extension.make` and `Extension.async` (spec "Extension.make"): an extension is data — a name, the globals it adds
 * to every program, and optional `snapshot` hooks — that `CodeMode.make` installs in each run's realm
 * (sandbox-extensions.ts). A global is a function or an object of functions (nested objects too); every function
 * reachable from it is an entry point. A function is synchronous unless it is an `async` function or is marked with
 * `Extension.async`; either kind may return a value, a Promise or an Effect, and an Effect's requirements become
 * requirements of `runtime.execute`, as a tool's do.
 */
import type { ServicesOf } from "./tool.ts"

export const TypeId: unique symbol = Symbol.for("codemode/Extension") as never
export type TypeId = typeof TypeId

const AsyncId: unique symbol = Symbol.for("codemode/Extension/async") as never

/**
 * Hooks that keep the host values an extension's functions return (and the functions inside them) across a
 * suspend: `encode` turns such a value into plain data (JSON values and `Uint8Array`s), `decode` turns the data
 * back into a host value of the same shape on resume.
 *
 * @since 0.1.0
 * @category models
 */
export interface SnapshotHooks {
  readonly encode: (value: unknown) => unknown
  readonly decode: (data: unknown) => unknown
}

/**
 * The globals of an extension: functions, or objects of them.
 *
 * @since 0.1.0
 * @category models
 */
export interface Globals {
  readonly [name: string]: unknown
}

/**
 * An extension; `R` is what its functions' Effects require.
 *
 * @since 0.1.0
 * @category models
 */
export interface Extension<out R = never> {
  readonly [TypeId]: { readonly _R: (_: never) => R }
  readonly name: string
  readonly globals: Globals
  readonly snapshot: SnapshotHooks | undefined
}

type Depth = [never, 0, 1, 2, 3, 4, 5, 6]

/** The services the Effects returned by the functions reachable from a global require. */
export type GlobalServices<G, D extends number = 7> = [D] extends [never]
  ? never
  : G extends (...args: any) => infer Ret
    ? ServicesOf<Ret>
    : G extends object
      ? { [K in keyof G]: GlobalServices<G[K], Depth[D]> }[keyof G]
      : never

/** The services a list of extensions requires. */
export type ExtensionServices<X> = X extends ReadonlyArray<infer E> ? (E extends Extension<infer R> ? R : never) : never

/**
 * Makes an extension. `globals` maps each global's name to a function or an object of functions; `snapshot`
 * preserves the values its functions return across a suspended VM run.
 *
 * @example
 * ```ts
 * const web = Extension.make({ name: "web", globals: { fetch: async (url: string) => (await globalThis.fetch(url)).text() } })
 * const runtime = CodeMode.make({ extensions: [web] })
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <const G extends Globals>(options: {
  readonly name: string
  readonly globals: G
  readonly snapshot?: SnapshotHooks
}): Extension<GlobalServices<G>> => {
  if (typeof options !== "object" || options === null) throw new TypeError("Extension.make expects an options object")
  const { name, globals, snapshot } = options
  if (typeof name !== "string" || name === "") throw new TypeError("Extension.make: name must be a non-empty string")
  if (typeof globals !== "object" || globals === null || Array.isArray(globals)) throw new TypeError(`Extension.make (${name}): globals must be an object`)
  for (const [key, value] of Object.entries(globals)) checkGlobal(name, key, value, new Set())
  if (snapshot !== undefined) {
    if (typeof snapshot !== "object" || snapshot === null || typeof snapshot.encode !== "function" || typeof snapshot.decode !== "function") {
      throw new TypeError(`Extension.make (${name}): snapshot must be { encode, decode } functions`)
    }
  }
  return { [TypeId]: variance, name, globals: { ...globals }, snapshot }
}

const variance = { _R: (_: never) => _ }

export const isExtension = (u: unknown): u is Extension<unknown> => typeof u === "object" && u !== null && TypeId in u

/** A global's tree must be finite: every function in it becomes a sandbox function when a realm is made. */
const checkGlobal = (extension: string, path: string, value: unknown, seen: Set<object>): void => {
  if (typeof value !== "object" || value === null) return
  if (seen.has(value)) throw new TypeError(`Extension.make (${extension}): global ${path} contains a circular reference`)
  seen.add(value)
  for (const [key, member] of Object.entries(value)) checkGlobal(extension, `${path}.${key}`, member, seen)
  seen.delete(value)
}

/**
 * Marks a plain function as asynchronous: the program gets a promise, and a call denied by a hook rejects it
 * instead of throwing.
 *
 * @since 0.1.0
 * @category constructors
 */
export const async = <F extends (...args: any) => any>(fn: F): F => {
  if (typeof fn !== "function") throw new TypeError("Extension.async expects a function")
  const marked = function (this: unknown, ...args: Array<unknown>) {
    return fn.apply(this, args)
  }
  Object.defineProperty(marked, "length", { value: fn.length })
  Object.defineProperty(marked, "name", { value: fn.name })
  return Object.assign(marked, { [AsyncId]: true }) as unknown as F
}

/** Whether calling `fn` gives the program a promise: an `async` function, or one marked with `Extension.async`. */
export const isAsyncFunction = (fn: Function): boolean =>
  (fn as { [AsyncId]?: unknown })[AsyncId] === true || Object.prototype.toString.call(fn) === "[object AsyncFunction]"
