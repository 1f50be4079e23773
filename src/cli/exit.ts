/**
 * How the `codemode` command ends: exit codes, and one-line error messages on stderr (the whole cause with
 * `--verbose`). Every handler runs under `guard`, which turns whatever it fails with into a `CliExit` carrying the
 * code; main.ts only has to read it.
 */
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { ClientError, toClientError } from "../client/promise.ts"
import type { RunStatus } from "../server/api.ts"

export const ExitCode = {
  succeeded: 0,
  /** The run failed or was cancelled. */
  failed: 1,
  /** Bad flags or arguments, a missing or unreadable file, a command that cannot run as configured. */
  usage: 2,
  /** The run is suspended: resume it later. */
  suspended: 3,
  /** The service could not be reached, or refused the request. */
  service: 4,
} as const

/** The code a command that reports a run ends with. */
export const forStatus = (status: RunStatus): number =>
  status === "suspended" ? ExitCode.suspended : status === "failed" || status === "cancelled" ? ExitCode.failed : ExitCode.succeeded

/** The process should end with `code`; what needed saying has been said. */
export class CliExit extends Data.TaggedError("CliExit")<{ readonly code: number }> {}

/** A failure the user can act on, said in one line. */
export class CliFailure extends Data.TaggedError("CliFailure")<{
  readonly code: number
  readonly message: string
  readonly cause?: unknown
}> {}

export const usage = (message: string, cause?: unknown) => new CliFailure({ code: ExitCode.usage, message, cause })

const describe = (error: unknown): CliFailure => {
  if (error instanceof CliFailure) return error
  const client = error instanceof ClientError ? error : isClientFailure(error) ? toClientError(error) : undefined
  if (client !== undefined) {
    const status = client.status === undefined ? "" : ` (${client.status} ${client.kind})`
    const calls = client.calls?.length ? `; blocking calls: ${client.calls.map((c) => `${c.path} ${c.key}`).join(", ")}` : ""
    return new CliFailure({ code: ExitCode.service, message: `${client.message}${status}${calls}`, cause: error })
  }
  const message = error instanceof Error ? error.message : String(error)
  return new CliFailure({ code: ExitCode.failed, message: message.split("\n")[0] ?? "", cause: error })
}

/** Errors from the Effect client: the API's error classes and HttpClientError. */
const isClientFailure = (error: unknown): boolean =>
  typeof error === "object" &&
  error !== null &&
  ("error" in error || (error as { _tag?: unknown })._tag === "HttpClientError")

/** Runs a handler, reports its failure (or defect) on stderr, and fails with the exit code it deserves. */
export const guard =
  (verbose: boolean) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, CliExit, R> =>
    effect.pipe(
      Effect.catchCause((cause) => {
        if (Cause.hasInterruptsOnly(cause)) return Effect.interrupt
        const error = Cause.squash(cause)
        if (error instanceof CliExit) return Effect.fail(error)
        const failure = describe(error)
        return Effect.sync(() => {
          process.stderr.write(`codemode: ${failure.message}\n`)
          if (verbose) process.stderr.write(`${Cause.pretty(cause)}\n`)
        }).pipe(Effect.andThen(Effect.fail(new CliExit({ code: failure.code }))))
      }),
    )
