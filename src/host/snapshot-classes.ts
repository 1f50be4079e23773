/**
 * The host's own heap classes, registered with the snapshot codec beside the runtime's: the `tools` tree's
 * namespaces and tool functions. Their link to the host (`toolsHost`: the realm, the tool index, the call ledger)
 * is not state — it is the resumed runtime's own, handed to the decoder — and a tool function's behaviour comes
 * back from its id: `codemode.tool:<path>` for a tool, `codemode.unknownTool` for a stand-in.
 */
import type { RestoreContext } from "../snapshot/context.ts"
import type { HeapClass } from "../snapshot/heap-codec.ts"
import { nativeFunctionFields, objectClass } from "../snapshot/registry-runtime.ts"
import { arr, str } from "../snapshot/value-shapes.ts"
import { NamespaceObject, TOOL_CALL, ToolFunction, UNKNOWN_TOOL_CALL, UNKNOWN_TOOL_ID, type ToolsHost } from "./sandbox-tools.ts"

const toolsHostOf = (ctx: RestoreContext): ToolsHost => {
  if (ctx.host === undefined) throw new Error("this runtime has no tools to reconnect the saved ones to")
  return ctx.host as ToolsHost
}

export const hostClasses: ReadonlyArray<HeapClass<RestoreContext>> = [
  objectClass("NamespaceObject", NamespaceObject, [["segments", arr(str)]], {
    transient: ["toolsHost"],
    restore: (o: NamespaceObject, ctx) => Object.assign(o, { toolsHost: toolsHostOf(ctx) }),
  }),
  objectClass("ToolFunction", ToolFunction, [...nativeFunctionFields, ["segments", arr(str)]], {
    transient: ["impl", "isTaskImpl", "toolsHost"],
    restore: (f: ToolFunction, ctx) => {
      const impl = f.nativeId === UNKNOWN_TOOL_ID ? UNKNOWN_TOOL_CALL : f.nativeId.startsWith("codemode.tool:") ? TOOL_CALL : undefined
      if (impl === undefined) throw new Error(`unknown tool function ${f.nativeId}`)
      Object.assign(f, { impl, isTaskImpl: false, toolsHost: toolsHostOf(ctx) })
    },
  }),
]
