/**
 * A scripted `Executor` for service tests: it behaves like the VM as the service sees it (tool calls with stable
 * keys, suspend refused while a plain call runs, idempotent calls interrupted on suspend and repeated with the
 * same key on resume, a durable call suspendable once started and waited on again on resume, state as bytes), on
 * programs that are JSON scripts instead of JavaScript:
 *
 *   { "steps": [{ "call": "slow.echo", "input": { "n": 1 } }, { "sleep": 50 }], "return": "$results" }
 *
 * `return` is any JSON value; the string "$results" stands for the outputs of the calls, in order. A `sleep` keeps a
 * run alive without using the CPU (a busy loop on the VM would), so the service's ownership, control and
 * persistence logic can be tested with many long runs at once.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Result } from "../../src/server/api.ts"
import {
  Executor,
  type Outcome,
  type Program,
  type ToolBinding,
  SnapshotInvalid,
  SuspendRefused,
  type Suspended,
} from "../../src/server/executor.ts"

type Step = { readonly call: string; readonly input?: unknown } | { readonly sleep: number }

interface Script {
  readonly steps: ReadonlyArray<Step>
  readonly return?: unknown
}

interface State {
  readonly code: string
  readonly step: number
  readonly results: ReadonlyArray<unknown>
  readonly toolCalls: ReadonlyArray<{ path: string; key: string }>
}

const encode = (state: State): Uint8Array => new TextEncoder().encode(JSON.stringify(state))

const make = (runId: string, tools: ReadonlyArray<ToolBinding>, from: State): Program => {
  let script: Script
  try {
    script = JSON.parse(from.code) as Script
  } catch {
    const result: Result = { ok: false, error: { kind: "ParseError", message: "not a JSON script" }, toolCalls: [] }
    return { run: Effect.succeed(result), suspend: Effect.void, checkpoint: () => Effect.succeed(undefined) }
  }
  const results = [...from.results]
  const toolCalls = [...from.toolCalls]
  let step = from.step
  let inFlight: { key: string; path: string; mode: string; waiting?: boolean } | undefined
  const suspendSignal = Deferred.makeUnsafe<void>()
  const outcome = Deferred.makeUnsafe<Outcome>()

  const runSteps = Effect.gen(function* () {
    for (; step < script.steps.length; step++) {
      const s = script.steps[step]!
      if ("sleep" in s) {
        yield* Effect.sleep(s.sleep)
        continue
      }
      const tool = tools.find((t) => t.path === s.call)
      if (tool === undefined) {
        return { ok: false, error: { kind: "UnknownTool", message: `tools.${s.call} is not available` }, toolCalls } satisfies Result
      }
      const key = `${runId}:${step}`
      if (!toolCalls.some((c) => c.key === key)) toolCalls.push({ path: s.call, key })
      inFlight = { key, path: s.call, mode: tool.mode }
      const call =
        tool.mode === "durable"
          ? tool.start(s.input ?? {}, { key }).pipe(
              // Started: the run may be suspended; on resume the step starts again, and the journal answers it.
              Effect.andThen(Effect.sync(() => void (inFlight = { ...inFlight!, waiting: true }))),
              Effect.andThen(tool.wait({ key })),
            )
          : tool.call(s.input ?? {}, { key })
      const r = yield* Effect.result(call)
      inFlight = undefined
      if (r._tag === "Failure") {
        return { ok: false, error: { kind: "ToolFailure", message: r.failure.message, path: s.call }, toolCalls } satisfies Result
      }
      results.push(r.success)
    }
    const value = script.return === "$results" ? results : (script.return ?? null)
    return { ok: true, value: value as never, toolCalls } satisfies Result
  })

  const run: Effect.Effect<Outcome> = Effect.raceFirst<Outcome, never, never, Outcome, never, never>(
    runSteps,
    Deferred.await(suspendSignal).pipe(
      // Computed after the race interrupts the steps, so `step` is the step that was in flight.
      Effect.map((): Suspended => ({
        ok: "suspended",
        state: encode({ code: from.code, step, results, toolCalls }),
        calls: toolCalls.length,
        lastKey: toolCalls.at(-1)?.key,
      })),
    ),
  ).pipe(Effect.tap((o) => Deferred.succeed(outcome, o)))

  const blocked = Effect.suspend(() =>
    inFlight !== undefined && inFlight.mode !== "idempotent" && inFlight.waiting !== true
      ? Effect.fail(
          new SuspendRefused({
            reason: "Blocked",
            detail: `The call ${inFlight.key} (tools.${inFlight.path}) is running and cannot be repeated`,
            calls: [{ key: inFlight.key, path: `tools.${inFlight.path}` }],
          }),
        )
      : Effect.void,
  )
  const suspend = blocked.pipe(Effect.andThen(Deferred.succeed(suspendSignal, undefined)), Effect.andThen(Deferred.await(outcome)), Effect.asVoid)
  const checkpoint = () => blocked.pipe(
    Effect.map(() => ({ bytes: encode({ code: from.code, step, results, toolCalls }), calls: toolCalls.length, lastKey: toolCalls.at(-1)?.key })),
  )
  return { run, suspend, checkpoint }
}

export const layer: Layer.Layer<Executor> = Layer.succeed(
  Executor,
  Executor.of({
    program: (spec) => Effect.sync(() => make(spec.runId, spec.tools, { code: spec.code, step: 0, results: [], toolCalls: [] })),
    resume: (spec) =>
      Effect.try({
        try: () => make(spec.runId, spec.tools, JSON.parse(new TextDecoder().decode(spec.state)) as State),
        catch: () => new SnapshotInvalid({ detail: "not a fake-executor state" }),
      }),
    catalog: (tools) => tools.map((t) => ({ path: t.path, signature: `tools.${t.path}(input: unknown): Promise<unknown>` })),
    check: () => undefined,
    // Scripts have no search of their own: a tool is found when its path or description contains the query.
    search: (tools, _namespaces, { query = "", limit = 20 }) =>
      tools
        .filter((t) => t.path.includes(query) || t.description.includes(query))
        .slice(0, limit)
        .map((t) => ({ path: t.path, description: t.description, signature: `tools.${t.path}(input: unknown): Promise<unknown>`, score: 1 })),
  }),
)

export const script = (s: Script): string => JSON.stringify(s)
