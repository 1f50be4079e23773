/**
 * Execution limits (spec "Execution Limits"): none has a default, and an invalid configuration throws `RangeError`
 * when the runtime is made, so the mistake surfaces at start-up rather than per run. Valid values:
 *
 * - `timeoutMs`: a positive finite number of milliseconds (total execution time, cleanup included);
 * - `maxToolCalls`: a non-negative integer (0 admits no call at all; `search` counts);
 * - `maxOutputBytes`: a positive integer (UTF-8 bytes of retained value and logs; warnings get as much again);
 * - `maxMemoryBytes`: a positive integer (bytes the run may allocate in all, as runtime/memory.ts charges them).
 *
 * An unknown key is refused too: a misspelt limit would otherwise silently be no limit.
 *
 * @since 0.1.0
 * @category models
 */
export interface Limits {
  readonly timeoutMs?: number
  readonly maxToolCalls?: number
  readonly maxOutputBytes?: number
  readonly maxMemoryBytes?: number
}

const RULES = {
  timeoutMs: { integer: false, min: 0, exclusive: true, text: "a positive finite number" },
  maxToolCalls: { integer: true, min: 0, exclusive: false, text: "a non-negative integer" },
  maxOutputBytes: { integer: true, min: 0, exclusive: true, text: "a positive integer" },
  maxMemoryBytes: { integer: true, min: 0, exclusive: true, text: "a positive integer" },
} as const

export const validateLimits = (limits: Limits | undefined): Limits => {
  if (limits === undefined) return {}
  if (typeof limits !== "object" || limits === null) throw new RangeError("limits must be an object")
  for (const [name, v] of Object.entries(limits)) {
    const rule = RULES[name as keyof typeof RULES]
    if (rule === undefined) throw new RangeError(`Unknown limit ${JSON.stringify(name)}; limits are ${Object.keys(RULES).join(", ")}`)
    if (v === undefined) continue
    const ok =
      typeof v === "number" &&
      Number.isFinite(v) &&
      (rule.integer ? Number.isInteger(v) : true) &&
      (rule.exclusive ? v > rule.min : v >= rule.min)
    if (!ok) throw new RangeError(`limits.${name} must be ${rule.text}, got ${String(v)}`)
  }
  return { ...limits }
}
