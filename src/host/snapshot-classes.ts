/**
 * The host's own heap classes, registered with the snapshot codec beside the runtime's: the `tools` tree's
 * namespaces and tool functions, and extension functions. Their link to the host (`toolsHost`: the realm, the tool
 * index, the call ledger; `extensionRun`: the run's extensions and the host values they returned) is not state — it
 * is the resumed runtime's own, handed to the decoder — and a function's behaviour comes back from its id:
 * `codemode.tool:<path>` for a tool, `codemode.unknownTool` for a stand-in, `codemode.extension` for an extension's.
 * An extension function keeps where its host function is (the extension, the call whose result holds it, the path
 * to it), not the function: after a resume it is found again in what the extension's `snapshot.decode` gave back.
 */
import type { RestoreContext } from "../snapshot/context.ts"
import type { HeapClass } from "../snapshot/heap-codec.ts"
import { nativeFunctionFields, objectClass } from "../snapshot/registry-runtime.ts"
import { arr, bool, nat, str } from "../snapshot/shape.ts"
import { NamespaceObject, TOOL_CALL, ToolFunction, UNKNOWN_TOOL_CALL, UNKNOWN_TOOL_ID, type ToolsHost } from "./sandbox-tools.ts"
import { EXTENSION_CALL, EXTENSION_CALL_ID, ExtensionFunction, type ExtensionRun } from "./sandbox-extensions.ts"

/** What the host hands the decoder for its own classes. */
export interface HostContext {
  readonly tools: ToolsHost
  readonly extensions: ExtensionRun
}

const hostOf = (ctx: RestoreContext): HostContext => {
  if (ctx.host === undefined) throw new Error("this runtime has no host to reconnect the saved functions to")
  return ctx.host as HostContext
}

export const hostClasses: ReadonlyArray<HeapClass<RestoreContext>> = [
  objectClass("NamespaceObject", NamespaceObject, [["segments", arr(str)]], {
    transient: ["toolsHost"],
    restore: (o: NamespaceObject, ctx) => Object.assign(o, { toolsHost: hostOf(ctx).tools }),
  }),
  objectClass("ToolFunction", ToolFunction, [...nativeFunctionFields, ["segments", arr(str)]], {
    transient: ["impl", "isTaskImpl", "toolsHost"],
    restore: (f: ToolFunction, ctx) => {
      const impl = f.nativeId === UNKNOWN_TOOL_ID ? UNKNOWN_TOOL_CALL : f.nativeId.startsWith("codemode.tool:") ? TOOL_CALL : undefined
      if (impl === undefined) throw new Error(`unknown tool function ${f.nativeId}`)
      Object.assign(f, { impl, isTaskImpl: false, toolsHost: hostOf(ctx).tools })
    },
  }),
  objectClass(
    "ExtensionFunction",
    ExtensionFunction,
    [...nativeFunctionFields, ["extension", str], ["valueId", nat], ["path", arr(str)], ["async", bool], ["hookName", str]],
    {
      transient: ["impl", "isTaskImpl", "extensionRun"],
      restore: (f: ExtensionFunction, ctx) => {
        if (f.nativeId !== EXTENSION_CALL_ID) throw new Error(`unknown extension function ${f.nativeId}`)
        Object.assign(f, { impl: EXTENSION_CALL, isTaskImpl: false, extensionRun: hostOf(ctx).extensions })
      },
    },
  ),
]
