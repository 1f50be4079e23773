/**
 * The `tools` global: the tool tree as sandbox objects. A namespace is a `NamespaceObject` (an ordinary object
 * inheriting from Object.prototype); a tool is a `ToolFunction`, a built-in function whose call copies its argument
 * (JSON semantics), admits the call and returns a promise that the host settles — tool calls start eagerly and run
 * concurrently. A path that is both a tool and a namespace is a ToolFunction with child properties. Children are
 * own data properties (enumerable, read-only), so `constructor`, `prototype` and `__proto__` are ordinary names
 * and `Object.keys(tools.orders)`, `"lookup" in tools.orders` and `typeof` behave as for any object.
 *
 * Referencing a name that is not there (`tools.orders.lokup`, `tools.ordr.lookup`) yields a stand-in function
 * rather than `undefined`, so that calling it fails with `UnknownTool` and a "did you mean" instead of a bare
 * "is not a function" TypeError. The stand-in appears only on [[Get]] — both the spec's `Get` and the runtime's
 * `lookup` fast path are overridden, and overriding `Get` is what makes engines' fast paths defer to it — while
 * `in`, `Object.keys`, `hasOwnProperty` and property descriptors still say the name does not exist. `then` and
 * `toJSON` are never stood in for, so a namespace is not a thenable and serializes as a plain object.
 */
import { NativeFunction, type NativeImpl } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import { NewIntrinsicPromiseCapability, RejectPromise } from "../runtime/promise.ts"
import { Property } from "../runtime/property.ts"
import { ABSENT, type Absent } from "../runtime/property-store.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import type { PropertyKey, Value } from "../runtime/value.ts"
import { DataError, fromData, toData } from "./data.ts"
import { failure, toSandboxError, type HostFailure } from "./host-failure.ts"
import type { CallLedger } from "./ledger.ts"
import { canonicalPath, toolExpression, TOOLS_GLOBAL } from "./path.ts"
import { suggest } from "./suggest.ts"
import type { ToolIndex, TreeNode } from "./tree.ts"

/** Names a protocol probes for (thenables, JSON.stringify): never stood in for. */
const NEVER_STUBBED = new Set<PropertyKey>(["then", "toJSON"])

/** What the sandbox objects of one run share. */
export interface ToolsHost {
  readonly realm: Realm
  readonly index: ToolIndex
  readonly ledger: CallLedger
}

/** The stand-in for a missing name under `segments`, as a data property (or nothing). */
const standIn = (host: ToolsHost, segments: ReadonlyArray<string>, P: PropertyKey): Property | undefined => {
  if (typeof P !== "string" || NEVER_STUBBED.has(P)) return undefined
  return Property.data(makeUnknownTool(host, [...segments, P]), false, false, true)
}

/** A namespace of the tool tree. */
export class NamespaceObject extends JSObject {
  readonly toolsHost: ToolsHost
  readonly segments: ReadonlyArray<string>
  constructor(host: ToolsHost, segments: ReadonlyArray<string>) {
    super(host.realm.ObjectPrototype)
    this.toolsHost = host
    this.segments = segments
  }
  override lookupSlot(P: PropertyKey): Value | Property | Absent {
    const s = super.lookupSlot(P)
    return s !== ABSENT ? s : (standIn(this.toolsHost, this.segments, P) ?? ABSENT)
  }
  // OrdinaryGet over `lookup` above; defined here so engines see an exotic [[Get]] and take it.
  override *Get(P: PropertyKey, Receiver: Value): Task<Value> {
    return yield* super.Get(P, Receiver)
  }
}

/** A tool (possibly also a namespace), or the stand-in for a missing one. */
export class ToolFunction extends NativeFunction {
  readonly toolsHost: ToolsHost
  readonly segments: ReadonlyArray<string>
  constructor(host: ToolsHost, segments: ReadonlyArray<string>, nativeId: string, impl: NativeImpl) {
    super(host.realm.FunctionPrototype, nativeId, impl, false)
    this.toolsHost = host
    this.segments = segments
    this.properties.set("length", Property.data(1, false, false, true))
    this.properties.set("name", Property.data(segments.at(-1) ?? TOOLS_GLOBAL, false, false, true))
  }
  override lookupSlot(P: PropertyKey): Value | Property | Absent {
    const s = super.lookupSlot(P)
    return s !== ABSENT ? s : (standIn(this.toolsHost, this.segments, P) ?? ABSENT)
  }
  override *Get(P: PropertyKey, Receiver: Value): Task<Value> {
    return yield* super.Get(P, Receiver)
  }
}

/** A promise already rejected with `f`: how a call that never reaches the host fails. */
const rejected = (realm: Realm, f: HostFailure): Value => {
  const capability = NewIntrinsicPromiseCapability(realm)
  RejectPromise(realm, capability.promise, toSandboxError(realm, f, realm.host.currentLocation()))
  return capability.promise
}

/**
 * A tool's call. It reads everything from the function itself (`self`: its host and path), so it is one shared
 * behaviour, not a closure: a saved run gets it back from the function's `nativeId` (snapshot: host/snapshot-classes.ts).
 */
export const TOOL_CALL: NativeImpl = (realm, _this, args, _nt, self) => {
  const { toolsHost: host, segments } = self as ToolFunction
  const expression = toolExpression(segments)
  // Arguments follow JSON serialization semantics and are copied now: changing them later changes nothing.
  let input: Value
  try {
    input = fromData(realm, toData(args[0]))
  } catch (e) {
    if (!(e instanceof DataError)) throw e
    return rejected(realm, failure("InvalidToolInput", `Invalid input for ${expression}: ${e.message}`, { path: expression, errorType: "TypeError" }))
  }
  const { callId } = host.ledger.admit(realm, expression)
  const capability = NewIntrinsicPromiseCapability(realm)
  realm.hostCalls.push({ callId, path: expression, args: [input], capability })
  return capability.promise
}

/** The call of a stand-in for a missing name: rejects with UnknownTool and a "did you mean". */
export const UNKNOWN_TOOL_CALL: NativeImpl = (realm, _this, _args, _nt, self) => {
  const { toolsHost: host, segments } = self as ToolFunction
  const expression = toolExpression(segments)
  const near = suggest(canonicalPath(segments), host.index.byPath.keys())
  const hint = near === undefined ? "Use search() to find available tools." : `Did you mean ${toolExpression(near)}?`
  return rejected(realm, failure("UnknownTool", `${expression} is not a tool. ${hint}`, { path: expression, errorType: "TypeError" }))
}

export const UNKNOWN_TOOL_ID = "codemode.unknownTool"

const makeTool = (host: ToolsHost, node: TreeNode): ToolFunction =>
  new ToolFunction(host, node.segments, `codemode.tool:${canonicalPath(node.segments)}`, TOOL_CALL)

const makeUnknownTool = (host: ToolsHost, segments: ReadonlyArray<string>): ToolFunction =>
  new ToolFunction(host, segments, UNKNOWN_TOOL_ID, UNKNOWN_TOOL_CALL)

/**
 * The sandbox object for a node and, recursively, its children. Each is registered in the realm under a name of
 * its path (`%codemode.tools["orders","lookup"]%`), as built-ins are: a saved run refers to it by that name and
 * finds the resumed runtime's own (snapshot "built-ins are saved by name").
 */
const build = (host: ToolsHost, node: TreeNode): JSObject => {
  const o = node.tool === undefined ? new NamespaceObject(host, node.segments) : makeTool(host, node)
  host.realm.register(`%codemode.tools${JSON.stringify(node.segments)}%`, o)
  for (const [name, child] of node.children) o.properties.set(name, Property.data(build(host, child), false, true, false))
  return o
}

/**
 * The tool index and ledger of each realm, for what serves every run from the template realm (search-global.ts).
 * Not the realm's ToolsHost: a WeakMap value that refers back to its key keeps the key alive through every
 * young-generation GC, and with it the whole run (docs/internals.md, "A run's garbage dies young").
 */
const hosts = new WeakMap<Realm, Pick<ToolsHost, "index" | "ledger">>()

/** The tool index and ledger of the run whose realm this is (its `installTools`). */
export const toolsHostOf = (realm: Realm): Pick<ToolsHost, "index" | "ledger"> => {
  const host = hosts.get(realm)
  if (host === undefined) throw new Error("codemode bug: a realm without tools called a host built-in")
  return host
}

/**
 * Installs `tools` on the global object (writable and configurable like other globals, so a program may shadow it),
 * and makes `host` the realm's for `toolsHostOf`.
 */
export const installTools = (host: ToolsHost): void => {
  hosts.set(host.realm, { index: host.index, ledger: host.ledger })
  const root = build(host, host.index.root)
  host.realm.globalObject.properties.set(TOOLS_GLOBAL, Property.data(root, true, false, true))
}
