/**
 * Reading an OpenAPI 3.x document: local `$ref` resolution (JSON Pointers into the document itself; `$ref`s to
 * other files are not followed), the operations of `paths` in document order, and the server an operation is sent
 * to. Nothing here knows about tools; operation.ts decides what an operation becomes.
 */
import { resolveRef } from "../host/json-schema.ts"

export type Obj = { readonly [key: string]: unknown }

export const isObject = (u: unknown): u is Obj => typeof u === "object" && u !== null && !Array.isArray(u)

/** The HTTP methods a path item may hold, in the order the OpenAPI specification lists them. */
export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const

export interface RawOperation {
  readonly method: (typeof METHODS)[number]
  readonly path: string
  readonly pathItem: Obj
  readonly operation: Obj
}

export class Document {
  readonly root: Obj
  constructor(root: Obj) {
    this.root = root
  }

  /** The object a local JSON Pointer (`#/components/schemas/Pet`) designates, if any. */
  pointer(ref: string): Obj | undefined {
    return resolveRef(this.root, ref)
  }

  /**
   * Follows a chain of `$ref`s (a Reference Object or a Path Item's `$ref`) to the object at its end. Fails with a
   * reason when a reference is not local, points at nothing, or comes back to itself.
   */
  resolve(node: unknown): { readonly ok: true; readonly value: Obj } | { readonly ok: false; readonly reason: string } {
    const seen = new Set<string>()
    let current = node
    while (isObject(current) && typeof current.$ref === "string") {
      const ref = current.$ref
      if (seen.has(ref)) return { ok: false, reason: `circular $ref ${ref}` }
      seen.add(ref)
      if (!ref.startsWith("#")) return { ok: false, reason: `external $ref ${ref} is not supported` }
      const target = this.pointer(ref)
      if (target === undefined) return { ok: false, reason: `unresolvable $ref ${ref}` }
      current = target
    }
    return isObject(current) ? { ok: true, value: current } : { ok: false, reason: "expected an object" }
  }

  /** Every operation of `paths`, in document order. */
  operations(): RawOperation[] {
    const paths = isObject(this.root.paths) ? this.root.paths : {}
    const out: RawOperation[] = []
    for (const [path, raw] of Object.entries(paths)) {
      const item = this.resolve(raw)
      if (!item.ok) continue
      for (const method of METHODS) {
        const operation = item.value[method]
        if (isObject(operation)) out.push({ method, path, pathItem: item.value, operation })
      }
    }
    return out
  }

  /** The security scheme named `name` in `components.securitySchemes`, `$ref` resolved. */
  securityScheme(name: string): Obj | undefined {
    const components = isObject(this.root.components) ? this.root.components : {}
    const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {}
    const scheme = this.resolve(schemes[name])
    return scheme.ok ? scheme.value : undefined
  }
}

/**
 * The URL of the first server of the operation, else of its path item, else of the document, with its variables
 * filled in (from `variables`, else their defaults); "" when none is declared (paths are then used as they are).
 */
export const serverUrl = (doc: Document, raw: RawOperation, variables: { readonly [name: string]: string }): string => {
  const lists = [raw.operation.servers, raw.pathItem.servers, doc.root.servers]
  const server = lists.map((l) => (Array.isArray(l) ? l.find(isObject) : undefined)).find((s) => s !== undefined)
  if (server === undefined || typeof server.url !== "string") return ""
  const declared = isObject(server.variables) ? server.variables : {}
  return server.url.replace(/\{([^}]*)\}/g, (whole, name: string) => {
    const given = variables[name]
    if (given !== undefined) return given
    const variable = declared[name]
    return isObject(variable) && typeof variable.default === "string" ? variable.default : whole
  })
}
