/**
 * Shapes: the types of the fields a snapshot may hold, checked when it is decoded (ARCHITECTURE principle 3:
 * "decoding validates every shape and reference and never trusts its input"). Every registered heap class declares
 * its fields with these (registry-*.ts), so a decoded record whose field has the wrong type — a string where a
 * frame's pc should be, an arbitrary object where a sandbox value should be — is a `SnapshotError` naming the
 * record and the field, never a host exception deep inside the engine later.
 *
 * A shape is a function that throws when its value does not conform. Containers (arrays, maps, plain records) are
 * checked element by element; a container already checked against the same shape is not checked again, which is
 * what keeps a cyclic or heavily shared hostile graph from making the check loop or explode.
 */
import { SnapshotError } from "./errors.ts"

export interface Checker {
  /** Containers checked (or being checked) against each shape. */
  readonly seen: Map<Shape, Set<object>>
  /** `instanceof` a registered heap class, by name. */
  readonly isInstance: (v: unknown, className: string) => boolean
}

export type Shape = (v: unknown, where: string, c: Checker) => void

/**
 * A shape's refusal. Not an Error: `or` tries alternatives by catching refusals, and capturing a host stack for
 * each would dominate decoding. `check` turns it into the SnapshotError callers see.
 */
export class Mismatch {
  readonly message: string
  constructor(message: string) {
    this.message = message
  }
}

export const mismatch = (message: string): never => {
  throw new Mismatch(message)
}

/** Runs a shape; a refusal is a SnapshotError. */
export const check = (shape: Shape, v: unknown, where: string, c: Checker): void => {
  try {
    shape(v, where, c)
  } catch (e) {
    if (e instanceof Mismatch) throw new SnapshotError(e.message)
    throw e
  }
}

const fail = (where: string, expected: string, v: unknown): never => {
  const got = v === null ? "null" : Array.isArray(v) ? "an array" : typeof v === "object" ? `an instance of ${(Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null)?.constructor?.name ?? "?"}` : typeof v
  return mismatch(`${where}: expected ${expected}, got ${got}`)
}

/**
 * Checks a container's contents once per shape: a container met again while (or after) it is checked passes, so
 * cycles end. A container whose check fails is forgotten, so that an alternative of `or` that failed halfway never
 * vouches for it later.
 */
const once = (v: object, shape: Shape, c: Checker, check: () => void): void => {
  let set = c.seen.get(shape)
  if (set === undefined) c.seen.set(shape, (set = new Set()))
  if (set.has(v)) return
  set.add(v)
  try {
    check()
  } catch (e) {
    set.delete(v)
    throw e
  }
}

export const any: Shape = () => {}
export const bool: Shape = (v, w) => {
  if (typeof v !== "boolean") fail(w, "a boolean", v)
}
export const num: Shape = (v, w) => {
  if (typeof v !== "number") fail(w, "a number", v)
}
export const int: Shape = (v, w) => {
  if (typeof v !== "number" || !Number.isSafeInteger(v)) fail(w, "an integer", v)
}
/** A non-negative safe integer. */
export const nat: Shape = (v, w) => {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) fail(w, "a non-negative integer", v)
}
/** An unsigned 32-bit integer. */
export const uint32: Shape = (v, w) => {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 0xffffffff) fail(w, "an unsigned 32-bit integer", v)
}
export const str: Shape = (v, w) => {
  if (typeof v !== "string") fail(w, "a string", v)
}
export const undef: Shape = (v, w) => {
  if (v !== undefined) fail(w, "undefined", v)
}
export const nul: Shape = (v, w) => {
  if (v !== null) fail(w, "null", v)
}
export const bytes: Shape = (v, w) => {
  if (!(v instanceof Uint8Array)) fail(w, "bytes", v)
}

export const lit =
  (...values: ReadonlyArray<string | number | boolean>): Shape =>
  (v, w) => {
    if (!values.includes(v as string)) mismatch(`${w}: expected one of ${values.map((x) => JSON.stringify(x)).join(", ")}`)
  }

export const or =
  (...shapes: ReadonlyArray<Shape>): Shape =>
  (v, w, c) => {
    let first: unknown
    for (const s of shapes) {
      try {
        s(v, w, c)
        return
      } catch (e) {
        if (!(e instanceof Mismatch)) throw e
        first ??= e
      }
    }
    throw first
  }

export const opt =
  (s: Shape): Shape =>
  (v, w, c) => {
    if (v !== undefined) s(v, w, c)
  }

export const nullable =
  (s: Shape): Shape =>
  (v, w, c) => {
    if (v !== null) s(v, w, c)
  }

/** An instance of one of the named heap classes (or of a subclass). */
export const inst =
  (...classNames: ReadonlyArray<string>): Shape =>
  (v, w, c) => {
    for (const n of classNames) if (c.isInstance(v, n)) return
    fail(w, `an instance of ${classNames.join(" or ")}`, v)
  }

export const arr =
  (item: Shape, maxLength = Infinity): Shape => {
    const self: Shape = (v, w, c) => {
      if (!Array.isArray(v)) return fail(w, "an array", v)
      if (v.length > maxLength) mismatch(`${w}: more than ${maxLength} items`)
      once(v, self, c, () => {
        for (let i = 0; i < v.length; i++) item(v[i], `${w}[${i}]`, c)
      })
    }
    return self
  }

/** A fixed-length tuple. */
export const tuple = (...items: ReadonlyArray<Shape>): Shape => {
  const self: Shape = (v, w, c) => {
    if (!Array.isArray(v) || v.length !== items.length) return fail(w, `a tuple of ${items.length}`, v)
    once(v, self, c, () => items.forEach((s, i) => s(v[i], `${w}[${i}]`, c)))
  }
  return self
}

export const map = (key: Shape, value: Shape): Shape => {
  const self: Shape = (v, w, c) => {
    if (!(v instanceof Map)) return fail(w, "a map", v)
    once(v, self, c, () => {
      for (const [k, x] of v) {
        key(k, `${w} key`, c)
        value(x, `${w} value`, c)
      }
    })
  }
  return self
}

export const set = (item: Shape): Shape => {
  const self: Shape = (v, w, c) => {
    if (!(v instanceof Set)) return fail(w, "a set", v)
    once(v, self, c, () => {
      for (const x of v) item(x, `${w} item`, c)
    })
  }
  return self
}

/** A plain record with exactly these keys (a key whose shape accepts undefined may be absent). */
export const rec = (fields: Readonly<Record<string, Shape>>): Shape => {
  const keys = Object.keys(fields)
  const self: Shape = (v, w, c) => {
    if (typeof v !== "object" || v === null || Array.isArray(v) || Object.getPrototypeOf(v) !== Object.prototype) return fail(w, "a plain record", v)
    for (const k of Object.keys(v)) if (!Object.hasOwn(fields, k)) mismatch(`${w}: unexpected field ${JSON.stringify(k)}`)
    once(v, self, c, () => {
      for (const k of keys) fields[k]!((v as Record<string, unknown>)[k], `${w}.${k}`, c)
    })
  }
  return self
}

/** A plain record with any keys, every value of one shape. */
export const dict = (value: Shape): Shape => {
  const self: Shape = (v, w, c) => {
    if (typeof v !== "object" || v === null || Array.isArray(v) || Object.getPrototypeOf(v) !== Object.prototype) return fail(w, "a plain record", v)
    once(v, self, c, () => {
      for (const [k, x] of Object.entries(v)) value(x, `${w}.${k}`, c)
    })
  }
  return self
}

/** A shape defined later (recursive shapes). */
export const lazy = (get: () => Shape): Shape => (v, w, c) => get()(v, w, c)

/** A shape plus a check of its own. */
export const refine =
  (s: Shape, check: (v: never) => string | undefined): Shape =>
  (v, w, c) => {
    s(v, w, c)
    const problem = check(v as never)
    if (problem !== undefined) mismatch(`${w}: ${problem}`)
  }
