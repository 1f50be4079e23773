/**
 * "Did you mean" for `UnknownTool` (spec "Results"): the known tool path closest to what the program wrote, by edit
 * distance, when it is close enough to be a likely typo. Comparison ignores case, so `tools.Orders.lookup` still
 * points at `orders.lookup`.
 */

/** Levenshtein distance, two rows at a time. */
export const editDistance = (a: string, b: string): number => {
  if (a === b) return 0
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    prev = row
  }
  return prev[b.length]!
}

/** The closest of `known` to `wanted`, or undefined when none is within a typo's reach. */
export const suggest = (wanted: string, known: Iterable<string>): string | undefined => {
  const w = wanted.toLowerCase()
  let best: string | undefined
  let bestDistance = Infinity
  for (const k of known) {
    const d = editDistance(w, k.toLowerCase())
    if (d < bestDistance) {
      best = k
      bestDistance = d
    }
  }
  const reach = Math.max(2, Math.floor(w.length * 0.4))
  return bestDistance <= reach ? best : undefined
}
