/**
 * `maxOutputBytes` mechanics (src/host/output-budget.ts): what is kept, where the marker goes, the warnings budget.
 * The spec sentences themselves are tested end to end in limits.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { diagnostic } from "../../src/host/diagnostic.ts"
import { byteLength, cutToBytes, retainOutput, retainWarnings, truncationMarker } from "../../src/host/output-budget.ts"

describe("output budget", () => {
  it("leaves everything alone without a limit or within it", () => {
    expect(retainOutput(undefined, { a: "x".repeat(1000) }, ["log"])).toEqual({ value: { a: "x".repeat(1000) }, logs: ["log"], truncated: false })
    expect(retainOutput(100, [1, 2], ["a", "b"])).toEqual({ value: [1, 2], logs: ["a", "b"], truncated: false })
  })

  it("turns an oversized value into a string of its JSON start plus a marker, within the budget", () => {
    const value = { items: Array.from({ length: 100 }, (_, i) => ({ id: `order_${i}` })) }
    const total = byteLength(JSON.stringify(value))
    const r = retainOutput(200, value, [])
    expect(r.truncated).toBe(true)
    expect(typeof r.value).toBe("string")
    const s = r.value as string
    expect(s.startsWith('{"items":[{"id":"order_0"}')).toBe(true)
    expect(s.endsWith(truncationMarker(total, 200))).toBe(true)
    expect(byteLength(JSON.stringify(s))).toBeLessThanOrEqual(200)
  })

  it("gives logs what the value leaves, cuts the first log that does not fit and drops the rest", () => {
    const r = retainOutput(120, "v", ["a".repeat(10), "b".repeat(200), "c"])
    expect(r.truncated).toBe(true)
    expect(r.logs[0]).toBe("a".repeat(10))
    expect(r.logs[1]!.startsWith("bbb")).toBe(true)
    expect(r.logs[1]!.endsWith(truncationMarker(200, 120))).toBe(true)
    expect(r.logs).toHaveLength(2)
    expect(byteLength(JSON.stringify("v")) + r.logs.reduce((n, l) => n + byteLength(l), 0)).toBeLessThanOrEqual(120)
  })

  it("never splits a character", () => {
    expect(cutToBytes("aé😀", 3)).toBe("aé")
    expect(cutToBytes("aé😀", 6)).toBe("aé")
    expect(cutToBytes("aé😀", 7)).toBe("aé😀")
  })

  it("keeps warnings within a separate budget and says how many were omitted", () => {
    const warnings = Array.from({ length: 10 }, (_, i) => diagnostic("ExecutionFailure", `Unhandled promise rejection: Error: ${i}`))
    const one = byteLength(JSON.stringify(warnings[0]))
    const kept = retainWarnings(one * 3, warnings)
    expect(kept.slice(0, 3)).toEqual(warnings.slice(0, 3))
    expect(kept[3]).toEqual(diagnostic("Truncated", "7 more warnings were omitted by maxOutputBytes"))
    expect(kept).toHaveLength(4)
    expect(retainWarnings(undefined, warnings)).toBe(warnings)
  })
})
