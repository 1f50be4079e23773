/**
 * Extension globals in the sandbox (spec "Extension.make"). Every function reachable from a global, and every
 * function inside a value an extension function returned, is an `ExtensionFunction`: a built-in whose call copies
 * its arguments to the host (extension-values.ts), runs the `extension` hooks around the host function, and copies
 * what it returned back in. Calls are not tools: not admitted, not in `toolCalls`, not counted against
 * `maxToolCalls` — but each gets a call id (its key is `<runId>:<callId>`, and the id names the value it returned).
 *
 * - A synchronous function runs at the point of call, inside the engine's step: the core stays synchronous, and
 *   the host function is plain host code called from a built-in. Its hooks and a returned Effect run with
 *   `Effect.runSyncExitWith` and the run's services (`ExtensionRun.services`, set by the run loop from its fiber).
 *   What it returns is the program's value, what it throws (or the Effect's failure) a thrown copy. When it
 *   returns a Promise, or an Effect that does not complete synchronously, the program gets a promise instead,
 *   settled as an asynchronous call's.
 * - An asynchronous function (an `async` function, or marked with `Extension.async`) returns a promise at once
 *   and becomes a host call like a tool's: its work waits in `ExtensionRun.pending` under its call id, and the run
 *   loop forks it in a fiber (so `timeoutMs` and interruption stop it), and settles the promise with its outcome.
 *
 * A function inside a result is found again from the value the call returned, kept in `ExtensionRun.values` under
 * that call's id, by its path (`fetch().text` is `text` of what `fetch` returned). Those values are host objects:
 * a suspended VM run saves them only through their extension's `snapshot` hooks (vm-session.ts); one it could not
 * keep leaves its functions throwing a TypeError after the resume.
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import { ThrowCompletion } from "../runtime/completion.ts"
import { CreateErrorObject, ErrorObject } from "../runtime/errors.ts"
import { NativeFunction, type NativeImpl } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import { FulfillPromise, NewIntrinsicPromiseCapability, RejectPromise, type PromiseObject } from "../runtime/promise.ts"
import { Property } from "../runtime/property.ts"
import type { Realm, SourceLocation } from "../runtime/realm.ts"
import type { Value } from "../runtime/value.ts"
import { DataError, fromData } from "./data.ts"
import type { CallOutcome } from "./dispatch.ts"
import type { Extension } from "./extension.ts"
import { fromWire, toHost, toWire, type FunctionRef, type Wire, type WireContext } from "./extension-values.ts"
import { describeCause, failure, toSandboxError, type HostFailure } from "./host-failure.ts"
import type { ExtensionHookCall, Hooks, ToolHookOutcome } from "./hooks.ts"
import type { CallLedger } from "./ledger.ts"
import { callHost, fromReturned } from "./returned.ts"
import { isToolError } from "./tool-error.ts"

/** One run's side of its extensions: what lives host side for as long as the run (across round trips too). */
export class ExtensionRun {
  readonly byName: ReadonlyMap<string, Extension<unknown>>
  readonly hooks: Hooks | undefined
  /** Values extension calls returned that hold functions, by the id of the call that returned them. */
  readonly values = new Map<number, { readonly extension: string; readonly value: unknown }>()
  /** Asynchronous calls made and not yet started, by call id: the run loop takes and forks them. */
  readonly pending = new Map<number, Effect.Effect<CallOutcome, never, unknown>>()
  /** The services of the fiber running the program: synchronous calls run their Effects with them. */
  services: Context.Context<unknown> = Context.empty() as Context.Context<unknown>
  /** Where asynchronous calls were made, for the errors they fail with (the run's ledger). */
  ledger: CallLedger | undefined = undefined

  constructor(extensions: ReadonlyArray<Extension<unknown>>, hooks: Hooks | undefined) {
    this.byName = new Map(extensions.map((x) => [x.name, x]))
    this.hooks = hooks
  }

  /** The work of asynchronous call `callId`, if it is an extension call not yet started. */
  take(callId: number): Effect.Effect<CallOutcome, never, unknown> | undefined {
    const work = this.pending.get(callId)
    this.pending.delete(callId)
    return work
  }
}

/** A host function as the program sees it. */
export class ExtensionFunction extends NativeFunction {
  extensionRun: ExtensionRun
  readonly extension: string
  /** 0 for a function reachable from a global; otherwise the call whose result holds it. */
  readonly valueId: number
  readonly path: ReadonlyArray<string>
  readonly async: boolean
  readonly hookName: string
  constructor(realm: Realm, run: ExtensionRun, ref: FunctionRef) {
    super(realm.FunctionPrototype, EXTENSION_CALL_ID, EXTENSION_CALL, false)
    this.extensionRun = run
    this.extension = ref.extension
    this.valueId = ref.valueId
    this.path = ref.path
    this.async = ref.async
    this.hookName = ref.hookName
    this.properties.set("length", Property.data(ref.length, false, false, true))
    this.properties.set("name", Property.data(ref.name, false, false, true))
  }
}

export const EXTENSION_CALL_ID = "codemode.extension"

const makeFunction =
  (realm: Realm, run: ExtensionRun) =>
  (ref: FunctionRef): JSObject =>
    new ExtensionFunction(realm, run, ref)

/** The sandbox value of a wire form, its functions calling into `run`. */
export const wireValue = (realm: Realm, run: ExtensionRun, w: Wire): Value => fromWire(realm, w, makeFunction(realm, run))

/** The name under which a global's value is registered in every realm (modules.ts resolves `require` with it). */
export const globalName = (name: string): string => `%codemode.global[${JSON.stringify(name)}]%`

/**
 * Installs every extension's globals on the realm: writable, configurable and not enumerable, like the
 * built-in globals. The objects are built alike in every realm, so a saved run finds them by name. Returns the
 * globals' names.
 */
export const installExtensions = (realm: Realm, run: ExtensionRun, ledger: CallLedger): ReadonlyArray<string> => {
  run.ledger = ledger
  const names: string[] = []
  for (const extension of run.byName.values()) {
    for (const [name, global] of Object.entries(extension.globals)) {
      const ctx: WireContext = { extension: extension.name, valueId: 0, prefix: name, holdsFunctions: false }
      const value = wireValue(realm, run, toWire(ctx, global, [name]))
      if (value instanceof JSObject) realm.register(globalName(name), value)
      realm.globalObject.properties.set(name, Property.data(value, true, false, true))
      names.push(name)
    }
  }
  return names
}

/** The host function a sandbox function stands for, and its `this`; a message when it is gone. */
const resolve = (f: ExtensionFunction): { readonly fn: Function; readonly self: unknown } | string => {
  const run = f.extensionRun
  const root = f.valueId === 0 ? run.byName.get(f.extension)?.globals : run.values.get(f.valueId)?.value
  if (root === undefined) {
    return f.valueId === 0
      ? `${f.hookName} is not available: this runtime has no extension ${f.extension}`
      : `${f.hookName} cannot be called: the value it belongs to was not kept when the run was suspended`
  }
  let holder: unknown = undefined
  let current: unknown = root
  for (const key of f.path) {
    if ((typeof current !== "object" && typeof current !== "function") || current === null) return `${f.hookName} is not a function`
    holder = current
    try {
      if (!offers(current, key)) return `${f.hookName} is not a function`
      current = (current as Record<string, unknown>)[key]
    } catch (e) {
      return `${f.hookName} cannot be reached: ${describeCause(e)}`
    }
  }
  if (typeof current !== "function") return `${f.hookName} is not a function`
  // A global is called without a receiver (`fetch(url)`); a method, on the object holding it (`fs.readFile`).
  return { fn: current, self: f.valueId === 0 && f.path.length === 1 ? undefined : holder }
}

/**
 * Whether a path step is one a copy can offer (extension-values.ts): an own property, or one of a prototype below
 * Object.prototype and Function.prototype, never `constructor`. A path comes from a copy, or from a snapshot that
 * is not trusted: it must not lead from an extension's value to the host's `Function`.
 */
const offers = (o: object, key: string): boolean => {
  if (key === "constructor") return false
  for (let p: object | null = o; p !== null && p !== Object.prototype && p !== Function.prototype; p = Object.getPrototypeOf(p)) {
    if (Object.prototype.hasOwnProperty.call(p, key)) return true
  }
  return false
}

/** The call of every ExtensionFunction: one shared behaviour, so a saved run gets it back from the `nativeId`. */
export const EXTENSION_CALL: NativeImpl = (realm, _this, args, _nt, self) => {
  const f = self as ExtensionFunction
  const run = f.extensionRun
  const failNow = (error: Value): Value => {
    if (!f.async) throw new ThrowCompletion(error)
    const capability = NewIntrinsicPromiseCapability(realm)
    RejectPromise(realm, capability.promise, error)
    return capability.promise
  }
  const typeError = (message: string): Value => failNow(CreateErrorObject(realm, "TypeError", message))
  let hostArgs: unknown[]
  try {
    const seen = new Map()
    hostArgs = args.map((a) => toHost(a, 0, seen))
  } catch (e) {
    if (e instanceof DataError) return typeError(`${f.hookName}: ${e.message}`)
    throw e
  }
  const target = resolve(f)
  if (typeof target === "string") return typeError(target)
  const callId = ++realm.lastCallId
  const call: ExtensionHookCall = { extension: f.extension, name: f.hookName, args: hostArgs }
  const wire: WireContext = { extension: f.extension, valueId: callId, prefix: `${f.hookName}()`, holdsFunctions: false }
  const invoke = () => target.fn.apply(target.self, hostArgs)
  if (f.async) return enqueue(realm, run, f.hookName, callId, asyncCall(run, call, invoke, wire))
  return syncCall(realm, run, call, invoke, wire, (work) => enqueue(realm, run, f.hookName, callId, work))
}

/** An asynchronous call: its promise, settled by the run loop with the outcome of `work`. */
const enqueue = (realm: Realm, run: ExtensionRun, path: string, callId: number, work: Effect.Effect<CallOutcome, never, unknown>): Value => {
  run.pending.set(callId, work)
  const location = realm.host.currentLocation()
  if (location !== undefined) run.ledger?.locations.set(callId, location)
  const capability = NewIntrinsicPromiseCapability(realm)
  realm.hostCalls.push({ callId, path, args: [], capability })
  return capability.promise
}

/** The failure of a hook (or of a hook that cannot run here): a ToolError's message reaches the program. */
const hookFailure = (name: string, error: unknown, verb: string): HostFailure => {
  if (isToolError(error)) return failure("ExecutionFailure", error.message, { path: name, detail: `${name} ${verb}: ${error.message}` })
  const message = `${name} ${verb}`
  return failure("ExecutionFailure", message, { path: name, detail: `${message}: ${describeCause(error)}` })
}

/** How an extension function's own result or failure ends the call, and what `after` is told. */
const conclude = (run: ExtensionRun, call: ExtensionHookCall, exit: Exit.Exit<unknown, unknown>, wire: WireContext): { outcome: CallOutcome; hook: ToolHookOutcome } => {
  if (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause)) return { outcome: { ok: "interrupted" }, hook: { _tag: "interrupted" } }
  const returned = Exit.isSuccess(exit)
  const value = returned ? exit.value : Cause.squash(exit.cause)
  let w: Wire
  try {
    w = toWire(wire, value)
  } catch (e) {
    if (!(e instanceof DataError)) throw e
    const message = `${call.name} ${returned ? "returned" : "threw"} a value that cannot be copied: ${e.message}`
    return {
      outcome: { ok: false, failure: failure("ExecutionFailure", message, { errorType: "TypeError", path: call.name }) },
      hook: { _tag: "failure", error: returned ? new TypeError(message) : value },
    }
  }
  if (wire.holdsFunctions) run.values.set(wire.valueId, { extension: wire.extension, value })
  return returned
    ? { outcome: { ok: "returned", value: w }, hook: { _tag: "success", value } }
    : { outcome: { ok: "threw", value: w }, hook: { _tag: "failure", error: value } }
}

/** `before`, the function, then its outcome and `after` (uninterruptibly, as a tool's). */
const asyncCall = (
  run: ExtensionRun,
  call: ExtensionHookCall,
  invoke: () => unknown,
  wire: WireContext,
): Effect.Effect<CallOutcome, never, unknown> =>
  Effect.gen(function* () {
    const before = run.hooks?.extension?.before
    if (before !== undefined) {
      const allowed = yield* Effect.exit(callHost(() => before(call)))
      if (Exit.isFailure(allowed)) {
        if (Cause.hasInterruptsOnly(allowed.cause)) return { ok: "interrupted" } as const
        return { ok: false, failure: hookFailure(call.name, Cause.squash(allowed.cause), "was denied") } as const
      }
    }
    return yield* finishAsync(run, call, callHost(invoke), wire)
  })

/** Waits for `work` (the function's result), concludes, and runs `after`. */
const finishAsync = (
  run: ExtensionRun,
  call: ExtensionHookCall,
  work: Effect.Effect<unknown, unknown, unknown>,
  wire: WireContext,
): Effect.Effect<CallOutcome, never, unknown> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(restore(work))
      const { outcome, hook } = conclude(run, call, exit, wire)
      const after = run.hooks?.extension?.after
      if (after === undefined) return outcome
      const afterExit = yield* Effect.exit(callHost(() => after(call, hook)))
      if (Exit.isFailure(afterExit) && !Cause.hasInterruptsOnly(afterExit.cause)) {
        return { ok: false, failure: hookFailure(call.name, Cause.squash(afterExit.cause), "failed") } as const
      }
      return outcome
    }),
  )

/** An Effect run now, with the run's services: its exit, or its fiber when it went asynchronous. */
const runNow = <A>(run: ExtensionRun, effect: Effect.Effect<A, unknown, unknown>): Exit.Exit<A, unknown> | Fiber.Fiber<A, unknown> => {
  const exit = Effect.runSyncExitWith(run.services)(effect)
  if (Exit.isFailure(exit)) {
    for (const reason of exit.cause.reasons) {
      if (Cause.isDieReason(reason) && Cause.isAsyncFiberError(reason.defect)) return reason.defect.fiber as Fiber.Fiber<A, unknown>
    }
  }
  return exit
}

/** A hook of a synchronous call: undefined when it passed, otherwise what it failed with. */
const runHookNow = (run: ExtensionRun, hook: () => unknown, hookName: string): { readonly error: unknown } | undefined => {
  const result = runNow(run, callHost(hook))
  if (Exit.isExit(result)) return Exit.isSuccess(result) ? undefined : { error: Cause.squash(result.cause) }
  result.interruptUnsafe()
  return { error: new Error(`hooks.extension.${hookName} did not complete synchronously, as the hooks of a synchronous function must`) }
}

/**
 * A synchronous call, at the point of call: `before`, the function, `after`, all now. A Promise, or an Effect
 * that goes asynchronous, continues as an asynchronous call (`later`), and the program gets its promise.
 */
const syncCall = (
  realm: Realm,
  run: ExtensionRun,
  call: ExtensionHookCall,
  invoke: () => unknown,
  wire: WireContext,
  later: (work: Effect.Effect<CallOutcome, never, unknown>) => Value,
): Value => {
  const location = realm.host.currentLocation()
  const hostError = (f: HostFailure): never => {
    throw new ThrowCompletion(toSandboxError(realm, f, location))
  }
  const before = run.hooks?.extension?.before
  if (before !== undefined) {
    const denied = runHookNow(run, () => before(call), "before")
    if (denied !== undefined) return hostError(hookFailure(call.name, denied.error, "was denied"))
  }
  let exit: Exit.Exit<unknown, unknown>
  try {
    const returned = invoke()
    if (Effect.isEffect(returned)) {
      const result = runNow(run, returned as Effect.Effect<unknown, unknown, unknown>)
      if (!Exit.isExit(result)) {
        const fiber = result
        return later(finishAsync(run, call, Fiber.join(fiber).pipe(Effect.onInterrupt(() => Fiber.interrupt(fiber))), wire))
      }
      exit = result
    } else if (isPromiseLike(returned)) {
      return later(finishAsync(run, call, fromReturned(returned), wire))
    } else exit = Exit.succeed(returned)
  } catch (e) {
    exit = Exit.fail(e)
  }
  const { outcome, hook } = conclude(run, call, exit, wire)
  const after = run.hooks?.extension?.after
  if (after !== undefined) {
    const failed = runHookNow(run, () => after(call, hook), "after")
    if (failed !== undefined) return hostError(hookFailure(call.name, failed.error, "failed"))
  }
  switch (outcome.ok) {
    case "returned":
      return wireValue(realm, run, outcome.value)
    case "threw":
      throw new ThrowCompletion(wireValue(realm, run, outcome.value))
    case false:
      return hostError(outcome.failure)
    default:
      // An Effect that interrupted itself: there is no value to give, and a synchronous call cannot wait.
      throw new ThrowCompletion(toSandboxError(realm, failure("ExecutionFailure", `${call.name} was interrupted`, { path: call.name }), location))
  }
}

const isPromiseLike = (x: unknown): x is PromiseLike<unknown> =>
  (typeof x === "object" || typeof x === "function") && x !== null && typeof (x as { then?: unknown }).then === "function"

/**
 * Settles the promise of a host call with its outcome (both run loops deliver through here): tools' data, an
 * extension's value or thrown value, or a host failure.
 */
export const settleCall = (
  realm: Realm,
  run: ExtensionRun,
  promise: PromiseObject,
  outcome: Exclude<CallOutcome, { ok: "interrupted" }>,
  location: SourceLocation | undefined,
): void => {
  if (promise.state !== "pending") return
  switch (outcome.ok) {
    case true:
      return FulfillPromise(realm, promise, fromData(realm, outcome.value))
    case false:
      return RejectPromise(realm, promise, toSandboxError(realm, outcome.failure, location))
  }
  let value: Value
  try {
    value = wireValue(realm, run, outcome.value)
  } catch (e) {
    if (!(e instanceof DataError)) throw e
    const f = failure("ExecutionFailure", `An extension call's outcome is malformed: ${e.message}`, { errorType: "TypeError" })
    return RejectPromise(realm, promise, toSandboxError(realm, f, location))
  }
  if (outcome.ok === "returned") return FulfillPromise(realm, promise, value)
  // A thrown error is located where the call was made, as a failed tool call's is.
  if (value instanceof ErrorObject && location !== undefined) value.location = location
  RejectPromise(realm, promise, value)
}
