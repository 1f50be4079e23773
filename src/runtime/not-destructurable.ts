/**
 * V8's TypeError for an object pattern whose value is null or undefined (RequireObjectCoercible). It names the
 * pattern's first property when that is static, and the value's source as V8 prints it (language/call-printer.ts);
 * the compiler and the tree-walker decide the site statically.
 */
import type { Value } from "./value.ts"

export interface DestructureSite {
  readonly kind: "destructure"
  /** The pattern's first property, if it is not computed or a rest element. */
  readonly property: string | undefined
  /**
   * What V8 prints for the source: its text; "value" for a parameter, described by its type; "none" for a nested
   * pattern or a for-of's assignment head, where V8 reports the property read that fails instead.
   */
  readonly of: { readonly text: string } | "value" | "none"
}

export const notDestructurableMessage = (site: DestructureSite, v: null | undefined): string => {
  const is = String(v)
  if (site.of === "none") return site.property === undefined ? `Cannot read properties of ${is}` : `Cannot read properties of ${is} (reading '${site.property}')`
  const of = site.of === "value" ? nullishByType(v) : site.of.text
  return site.property === undefined ? `Cannot destructure '${of}' as it is ${is}.` : `Cannot destructure property '${site.property}' of '${of}' as it is ${is}.`
}

/** V8's description of null or undefined by its type, where no source text names it. */
export const nullishByType = (v: Value): string => (v === null ? "object null" : "undefined")
