/**
 * A realm: the intrinsics of one run, its global object, and the agent-level state the spec keeps beside them
 * (the job queue, the symbol registry, rejected-promise tracking, captured console output). Everything a run
 * needs besides the engine's own stack hangs from here, so that a snapshot is the realm plus the engine state.
 * Intrinsics are registered under their spec names ("%Array.prototype%") — the identity snapshots use to save
 * built-ins by name. Creating a realm is `createRealm` in src/intrinsics/index.ts (the runtime never depends on
 * the intrinsics); a run's realm is usually a fork of a template built that way (realm-fork.ts), whose intrinsics
 * are copied from the template's on first use.
 */
import type { MemoryMeter } from "./memory.ts"
import type { JSObject } from "./object.ts"
import type { Job, PromiseCapability } from "./promise.ts"
import type { Fork } from "./realm-fork.ts"
import type { Value } from "./value.ts"
import type { SymbolValue } from "./value.ts"

export interface SourceLocation {
  readonly line: number
  readonly column: number
}


/** A call from the program into the host, waiting to be picked up. */
export interface HostCallRequest {
  readonly callId: number
  readonly path: string
  readonly args: ReadonlyArray<Value>
  readonly capability: PromiseCapability
}

export type LogLevel = "log" | "info" | "debug" | "warn" | "error"

/** What the engine running this realm tells the runtime. */
export interface RealmHost {
  /** Where the running code is, for errors created now (their reported location). */
  currentLocation(): SourceLocation | undefined
  /** The source text of a function the program defined, for Function.prototype.toString; undefined if not kept. */
  functionSourceText?(f: JSObject): string | undefined
  /**
   * The current time in epoch milliseconds, for `Date.now()`, `new Date()` and `Date()`. The host injects its
   * clock here (the library passes its own, tests may pass a fixed one); intrinsics never read a host clock
   * themselves but call `Realm.clock()`, which falls back to the host process's time when this is left out.
   */
  now?(): number
  /**
   * Throws a Termination once the run must stop (its time limit has passed); the host's run loop installs it. Built-in
   * loops that run as long as the program asks without calling program code poll it (`PollInterrupt`), so
   * `timeoutMs` ends them as it ends a busy loop.
   */
  interrupt?(): void
}

/** A fixed, non-zero Math.random state: a realm's until the host seeds it. */
export const RANDOM_SEED: ReadonlyArray<number> = [0x9e3779b9, 0x7f4a7c15, 0xbf58476d, 0x1ce4e5b9]

export class Realm {
  /** Intrinsics registered in this realm; a fork finds its template's through `fork` (`findIntrinsic`). */
  readonly ownIntrinsics = new Map<string, JSObject>()
  /** The name of every intrinsic object of this realm (a fork's twins included), for snapshots. */
  readonly intrinsicNames = new Map<JSObject, string>()
  /** The template this realm was forked from, and its twins so far; undefined for a realm built in place. */
  fork: Fork | undefined = undefined
  globalObject!: JSObject
  /** https://tc39.es/ecma262/#sec-hostenqueuepromisejob — FIFO. */
  readonly jobs: Job[] = []
  /** https://tc39.es/ecma262/#sec-symbol.for — GlobalSymbolRegistry. */
  readonly symbolRegistry = new Map<string, SymbolValue>()
  /** Promises rejected with no handler yet (HostPromiseRejectionTracker), in rejection order. */
  readonly unhandledRejections = new Set<JSObject>()
  /** Promises created and not yet settled (capped: Caps.maxPendingPromises). */
  pendingPromises = 0
  /**
   * Calls into the host (tools, search, extension globals) made since the host last looked, in call order. The
   * host takes them, runs them outside the run, and settles `capability` with the outcome.
   */
  readonly hostCalls: HostCallRequest[] = []
  /** Sequence number of the last host call, for call keys `<runId>:<callId>`. */
  lastCallId = 0
  /**
   * Math.random's xorshift128+ state: [state0 high, state0 low, state1 high, state1 low], unsigned 32-bit each. Run
   * state kept here rather than on the Math object, so that seeding a run leaves every intrinsic as built.
   */
  randomState: number[] = [...RANDOM_SEED]
  /** console output, already formatted. */
  readonly logs: string[] = []
  host: RealmHost = { currentLocation: () => undefined }
  /** The run's memory budget (`limits.maxMemoryBytes`), charged while its slices run; none without the limit. */
  memory: MemoryMeter | undefined = undefined
  /** `PollInterrupt` calls left before the next one asks the host; a sampling counter, not run state (never saved). */
  pollCountdown = 0

  // Hot intrinsics, cached after installation.
  ObjectPrototype!: JSObject
  FunctionPrototype!: JSObject
  ArrayPrototype!: JSObject

  /** The current time in epoch milliseconds, from the host's clock (see `RealmHost.now`). */
  clock(): number {
    const now = this.host.now
    // The one default clock of the core: a host that wants deterministic time installs `now`.
    return now === undefined ? Date.now() : now.call(this.host)
  }

  /** The intrinsic named `name` ("%Array.prototype%"); a missing one is an engine bug. */
  intrinsic(name: string): JSObject {
    const o = this.findIntrinsic(name)
    if (o === undefined) throw new Error(`codemode bug: intrinsic ${name} is not installed`)
    return o
  }

  /** The intrinsic named `name`, or undefined when there is none. */
  findIntrinsic(name: string): JSObject | undefined {
    return this.ownIntrinsics.get(name) ?? this.fork?.intrinsic(name)
  }

  register(name: string, o: JSObject): JSObject {
    this.ownIntrinsics.set(name, o)
    if (!this.intrinsicNames.has(o)) this.intrinsicNames.set(o, name)
    return o
  }
}
