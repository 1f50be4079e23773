/**
 * Sandbox error objects and the one place host-side failures become sandbox throws. `toThrowCompletion` is what
 * every engine calls on a host exception it catches: a `ThrowCompletion` passes through, a `SandboxError`
 * becomes a new error object of this realm; anything else (a `Termination`, an engine bug) is rethrown.
 *
 * `stack` is V8's: an own accessor (get/set shared by every error, installed by src/intrinsics/error.ts) whose
 * value is formatted on first read from the error's current `name` and `message` ("Name: message\n    at
 * <program>"), so `class E extends Error { constructor(m) { super(m); this.name = "E" } }` prints `E: m` as in V8.
 * The formatted or assigned value is kept in `ErrorObject.stack`.
 */
import { type ErrorType, SandboxError, ThrowCompletion } from "./completion.ts"
import { JSObject } from "./object.ts"
import { Property } from "./property.ts"
import type { Realm, SourceLocation } from "./realm.ts"
import type { Value } from "./value.ts"

/** The frames part of every `stack`: codemode reports no host frames. */
export const STACK_FRAMES = "\n    at <program>"

/** An object with [[ErrorData]]; `location` is where the program was when it was created. */
export class ErrorObject extends JSObject {
  location: SourceLocation | undefined
  /** The `stack` value once read or assigned (`{ value }`); undefined while it is still to be formatted. */
  stack: { value: Value } | undefined = undefined
  /**
   * Set by the host on the error a failed host call rejects with (src/host/host-failure.ts): the diagnostic the run
   * reports if the program lets this error escape (`ToolFailure`, `UnknownTool`...). Invisible to the program;
   * plain data, so it snapshots with the error.
   */
  hostDiagnostic: { readonly kind: string; readonly message: string; readonly path?: string } | undefined = undefined
  constructor(proto: JSObject | null, location: SourceLocation | undefined) {
    super(proto)
    this.kind = "Error"
    this.location = location
  }
}

/**
 * Installs the own `stack` property of a new error: V8's accessor once the error family is installed (always,
 * for a running program), a formatted data property before that.
 */
export const InstallErrorStack = (realm: Realm, e: ErrorObject, header: string): void => {
  const get = realm.findIntrinsic("%ErrorStack[get]%")
  const set = realm.findIntrinsic("%ErrorStack[set]%")
  if (get !== undefined && set !== undefined) e.properties.set("stack", Property.accessorOf(get, set, false, true))
  else e.properties.set("stack", Property.data(header + STACK_FRAMES, true, false, true))
}

/** A new error of `type` with `message`, as `new TypeError(message)` would make it. */
export const CreateErrorObject = (realm: Realm, type: ErrorType | "AggregateError" | "SuppressedError", message: string): ErrorObject => {
  const e = new ErrorObject(realm.intrinsic(`%${type}.prototype%`), realm.host.currentLocation())
  InstallErrorStack(realm, e, message === "" ? type : `${type}: ${message}`)
  e.properties.set("message", Property.data(message, true, false, true))
  return e
}

export const toThrowCompletion = (realm: Realm, e: unknown): ThrowCompletion => {
  if (e instanceof ThrowCompletion) return e
  if (e instanceof SandboxError) return new ThrowCompletion(CreateErrorObject(realm, e.type, e.message))
  // No RegExp here: near the end of the host stack, compiling one overflows again.
  if (e instanceof RangeError && (e.message.includes("call stack") || e.message.includes("Stack overflow"))) {
    // A host stack overflow inside runtime code (deeply nested data): report it as the sandbox would.
    return new ThrowCompletion(CreateErrorObject(realm, "RangeError", "Maximum call stack size exceeded"))
  }
  throw e
}
