/**
 * How long a request waits for its run to settle or suspend (issue 15): `wait` is `true` (the configured default),
 * `false` or `0` (answer at once), milliseconds, or a duration text (`"500ms"`, `"30s"`, `"2m"`); every wait is
 * capped by `CODEMODE_WAIT_MAX_MS`, so no request holds a connection without bound.
 */
import type { ServerConfigShape } from "../config.ts"

const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const

/** The milliseconds of a duration text the API schema admitted (`WaitBound`). */
const parse = (text: string): number => {
  const m = /^(\d+)(ms|s|m)?$/.exec(text)!
  return Number(m[1]) * UNIT_MS[(m[2] ?? "ms") as keyof typeof UNIT_MS]
}

export const waitMs = (wait: boolean | number | string | undefined, config: ServerConfigShape, absent: boolean): number => {
  const asked = wait === undefined ? absent : wait
  const ms = asked === true ? config.waitDefaultMs : asked === false ? 0 : typeof asked === "number" ? asked : parse(asked)
  return Math.min(ms, config.waitMaxMs)
}
