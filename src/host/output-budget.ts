/**
 * `maxOutputBytes` (spec "Execution Limits"): the retained result value and logs share one budget of UTF-8 bytes,
 * the value first (it is what the host asked for), then logs in order. Truncation never fails a run:
 *
 * - a value whose JSON is larger than the budget becomes a string — the start of its JSON text followed by an
 *   in-band marker saying how large it was — sized so that it fits;
 * - logs are kept while they fit; the first that does not is cut (with the marker) and the rest are dropped;
 * - either sets `truncated: true`.
 *
 * Warnings have a separate budget of the same size, counted on their JSON; the ones that do not fit are dropped and
 * a single `Truncated` warning says how many. Without the limit nothing is touched.
 */
import type { DataValue } from "./data.ts"
import { diagnostic, type Diagnostic } from "./diagnostic.ts"

export const byteLength = (s: string): number => Buffer.byteLength(s, "utf8")

/** The marker appended to cut output. */
export const truncationMarker = (total: number, limit: number): string => `…[truncated: ${total} bytes exceed maxOutputBytes ${limit}]`

/** The longest prefix of `s` of at most `bytes` UTF-8 bytes, never splitting a character. */
export const cutToBytes = (s: string, bytes: number): string => {
  let used = 0
  let end = 0
  for (const ch of s) {
    const n = byteLength(ch)
    if (used + n > bytes) break
    used += n
    end += ch.length
  }
  return s.slice(0, end)
}

/** `text` cut so that `encode(cut + marker)` fits in `bytes`; just the marker when nothing else fits. */
const cutWithMarker = (whole: string, marker: string, bytes: number, encode: (s: string) => string): string => {
  // Nothing past `bytes` can be kept: cut there first so the search below costs O(bytes), not O(whole).
  const text = cutToBytes(whole, bytes)
  let lo = 0
  let hi = text.length
  // Binary search on the prefix length: the encoded size grows with it.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (byteLength(encode(cutToBytes(text, byteLength(text.slice(0, mid))) + marker)) <= bytes) lo = mid
    else hi = mid - 1
  }
  return cutToBytes(text, byteLength(text.slice(0, lo))) + marker
}

export interface Retained {
  readonly value: DataValue | undefined
  readonly logs: ReadonlyArray<string>
  readonly truncated: boolean
}

/** Applies the output budget to a run's value (undefined for a failed run) and logs. */
export const retainOutput = (limit: number | undefined, value: DataValue | undefined, logs: ReadonlyArray<string>): Retained => {
  if (limit === undefined) return { value, logs, truncated: false }
  let truncated = false
  let remaining = limit
  let kept = value
  if (value !== undefined) {
    const json = JSON.stringify(value)
    const size = byteLength(json)
    if (size > limit) {
      kept = cutWithMarker(json, truncationMarker(size, limit), limit, JSON.stringify)
      truncated = true
    }
    remaining -= byteLength(JSON.stringify(kept))
  }
  const keptLogs: string[] = []
  for (const line of logs) {
    const size = byteLength(line)
    if (size <= remaining) {
      keptLogs.push(line)
      remaining -= size
      continue
    }
    truncated = true
    const marker = truncationMarker(size, limit)
    if (remaining > byteLength(marker)) keptLogs.push(cutWithMarker(line, marker, remaining, (s) => s))
    break
  }
  return { value: kept, logs: keptLogs, truncated }
}

/** Applies the separate warnings budget; omitted warnings are replaced by one `Truncated` warning. */
export const retainWarnings = (limit: number | undefined, warnings: ReadonlyArray<Diagnostic>): ReadonlyArray<Diagnostic> => {
  if (limit === undefined) return warnings
  const kept: Diagnostic[] = []
  let remaining = limit
  for (const w of warnings) {
    const size = byteLength(JSON.stringify(w))
    if (size > remaining) break
    kept.push(w)
    remaining -= size
  }
  const omitted = warnings.length - kept.length
  if (omitted === 0) return kept
  return [...kept, diagnostic("Truncated", `${omitted} more warning${omitted === 1 ? " was" : "s were"} omitted by maxOutputBytes`)]
}
