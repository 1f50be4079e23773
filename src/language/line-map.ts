/**
 * Offsets to line:column in the user's source. Lines are split at every ECMAScript LineTerminatorSequence (LF, CR,
 * CRLF, U+2028, U+2029), as V8 and meriyah count them, so a diagnostic's line agrees with the engine's own stack
 * positions. Columns are 1-based UTF-16 code units, the unit of every string index in the system.
 */

export interface SourceLocation {
  readonly line: number
  readonly column: number
}

export interface LineMap {
  /** Maps a UTF-16 offset (clamped to the source) to its 1-based line and column. */
  locate(offset: number): SourceLocation
}

export function makeLineMap(source: string): LineMap {
  const lineStarts = [0]
  for (let index = 0; index < source.length; index++) {
    const code = source.charCodeAt(index)
    if (code === 0x0d && source.charCodeAt(index + 1) === 0x0a) continue // CRLF ends at its LF
    if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029) lineStarts.push(index + 1)
  }
  return {
    locate(offset) {
      const clamped = Number.isFinite(offset) ? Math.max(0, Math.min(Math.trunc(offset), source.length)) : 0
      let low = 0
      let high = lineStarts.length - 1
      while (low < high) {
        const middle = (low + high + 1) >> 1
        if ((lineStarts[middle] as number) <= clamped) low = middle
        else high = middle - 1
      }
      return { line: low + 1, column: clamped - (lineStarts[low] as number) + 1 }
    },
  }
}
