/**
 * V8's TypeError messages for a value that is not iterable where an iterator is needed. V8 words them from what
 * its call printer finds in the source at the error's position, which depends on the construct: a for-of or a
 * spread names the iterable's expression ("x is not iterable", also for null and undefined), a destructuring
 * assignment or a parameter names nothing and describes the value by its type ("number 0 is not iterable (cannot
 * read property Symbol(Symbol.iterator))"). The compiler and the tree-walker decide the site statically
 * (language/static-semantics.ts, `iterableSite`); the message depends on the value only here.
 */
import { nullishByType } from "./not-destructurable.ts"
import { JSObject } from "./object.ts"
import { describeValue } from "./operations.ts"
import type { Value } from "./value.ts"

export type NotIterableSite =
  /** One message whatever the value: "o is not iterable" for `for (x of o)`, `[...o]`, `const [a] = o`. */
  | { readonly kind: "fixed"; readonly message: string }
  /** `f(a, ...o)`, the only spread last: V8's own message, but "o is not iterable (cannot read property null)". */
  | { readonly kind: "lastSpreadArgument"; readonly text: string }
  /**
   * `{ p: [a] } = o`, an array pattern that is a property's value in the outermost object pattern: V8 names the
   * object's source (a parameter's has none: undefined, and a value that is not nullish is described).
   */
  | { readonly kind: "patternProperty"; readonly text: string | undefined }

/** The message for `v`, which has no iterator method (or is null or undefined), at `site` (undefined: none). */
export const notIterableMessage = (site: NotIterableSite | undefined, v: Value): string => {
  const nullish = v === undefined || v === null
  switch (site?.kind) {
    case undefined:
      return notIterableValue(v)
    case "fixed":
      return site.message
    case "lastSpreadArgument":
      return nullish ? `${site.text} is not iterable (cannot read property ${String(v)})` : "Spread syntax requires ...iterable[Symbol.iterator] to be a function"
    case "patternProperty":
      if (nullish) return `Cannot destructure property 'Symbol(Symbol.iterator)' of '${site.text ?? nullishByType(v)}' as it is ${String(v)}.`
      return site.text === undefined ? notIterableValue(v) : `${site.text} is not iterable (cannot read property Symbol(Symbol.iterator))`
  }
}

/** V8's message when no source text names the value: its type, and the value of a primitive that has one. */
export const notIterableValue = (v: Value): string => {
  const what =
    v instanceof JSObject
      ? v.isCallable()
        ? "function"
        : "object"
      : v === undefined || v === null
        ? nullishByType(v)
        : typeof v === "object"
            ? "symbol"
            : typeof v === "bigint"
              ? "bigint"
              : `${typeof v} ${describeValue(v)}`
  return `${what} is not iterable (cannot read property Symbol(Symbol.iterator))`
}
