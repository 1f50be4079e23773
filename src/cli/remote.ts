/**
 * The commands that talk to a running service: `runs …`, `calls …`, `tools …`, and `run FILE --url`. Each takes
 * `--url` (or CODEMODE_URL), `--api-key` (or CODEMODE_API_KEY), `--json` for machine output and `--verbose`.
 */
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { readFileSync } from "node:fs"
import type { ApiClient } from "../client/effect.ts"
import { toClientError } from "../client/promise.ts"
import type { Catalog, CatalogTool, ForkOutcome, Run, RunEvent, RunPage, ToolSearch } from "../server/api.ts"
import { CliExit, CliFailure, ExitCode, forStatus, guard, usage } from "./exit.ts"

export const commonFlags = {
  json: Flag.Boolean("json").pipe(Flag.withDescription("print JSON instead of text"), Flag.withDefault(false)),
  verbose: Flag.Boolean("verbose").pipe(Flag.withDescription("print the whole error on failure"), Flag.withDefault(false)),
}

export const remoteFlags = {
  ...commonFlags,
  url: Flag.String("url").pipe(
    Flag.withDescription("the service's base URL (env CODEMODE_URL; default http://127.0.0.1:8080)"),
    Flag.withFallbackConfig(Config.String("CODEMODE_URL")),
    Flag.withDefault("http://127.0.0.1:8080"),
  ),
  apiKey: Flag.String("api-key").pipe(
    Flag.withDescription("sent as a Bearer token (env CODEMODE_API_KEY)"),
    Flag.withFallbackConfig(Config.String("CODEMODE_API_KEY")),
    Flag.optional,
  ),
}

interface Remote {
  readonly json: boolean
  readonly verbose: boolean
  readonly url: string
  readonly apiKey: Option.Option<string>
}

const out = (text: string) => Effect.sync(() => void process.stdout.write(text.endsWith("\n") ? text : `${text}\n`))

/** Runs `f` with a client of the service, reporting failures as one line and ending with the right code. */
const withClient = <A>(flags: Remote, f: (client: ApiClient) => Effect.Effect<A, unknown>): Effect.Effect<A, CliExit> =>
  Effect.gen(function* () {
    const { make } = yield* Effect.promise(() => import("../client/effect.ts"))
    const client = yield* make({ baseUrl: flags.url, apiKey: Option.getOrUndefined(flags.apiKey) })
    return yield* f(client).pipe(Effect.mapError((e) => (e instanceof CliExit || e instanceof CliFailure ? e : toClientError(e))))
  }).pipe(Effect.provide(FetchHttpClient.layer), guard(flags.verbose))

// ---------------------------------------------------------------------------------------------------------------
// Printing

const json = (value: unknown) => JSON.stringify(value, null, 2)

/** A run, as text: its id and status, then what it returned or the error, and its logs. */
const runText = (run: Run): string => {
  const lines = [`${run.id}\t${run.status}`]
  if (run.forkedFrom !== undefined) lines.push(`forked from ${run.forkedFrom.run} at checkpoint ${run.forkedFrom.checkpoint}`)
  for (const call of run.pendingCalls ?? []) lines.push(`pending call ${call.path} ${call.key} (${call.state})`)
  const result = run.result
  if (result !== undefined) {
    for (const line of result.logs ?? []) lines.push(`log: ${line}`)
    if (result.ok) lines.push(json(result.value))
    else {
      const at = result.error.location ? ` at ${result.error.location.line}:${result.error.location.column}` : ""
      lines.push(`${result.error.kind}: ${result.error.message}${at}`)
    }
  }
  return lines.join("\n")
}

/** Prints a run and ends with the code its status deserves. */
export const reportRun = (flags: { readonly json: boolean }, run: Run) =>
  out(flags.json ? json(run) : runText(run)).pipe(
    Effect.andThen(() => {
      const code = forStatus(run.status)
      return code === ExitCode.succeeded ? Effect.void : Effect.fail(new CliExit({ code }))
    }),
  )

const eventLine = (flags: { readonly json: boolean }, e: RunEvent) =>
  flags.json ? JSON.stringify({ id: e.id, event: e.event, data: JSON.parse(e.data) }) : `${e.id}\t${e.event}\t${e.data}`

// ---------------------------------------------------------------------------------------------------------------
// Runs

/** Polls until the run is no longer running (the API answers a create or resume with 202 after its wait). */
const settle = (client: ApiClient, run: Run, timeout: Option.Option<number>): Effect.Effect<Run, unknown> => {
  const poll: Effect.Effect<Run, unknown> = Effect.suspend(() =>
    client.runs.get({ params: { id: run.id }, query: {} }).pipe(
      Effect.flatMap((r) => (r.status === "running" ? Effect.sleep(Duration.millis(250)).pipe(Effect.andThen(poll)) : Effect.succeed(r))),
    ),
  )
  if (run.status !== "running") return Effect.succeed(run)
  const waiting = Effect.sleep(Duration.millis(250)).pipe(Effect.andThen(poll))
  return Option.match(timeout, {
    onNone: () => waiting,
    onSome: (seconds) =>
      waiting.pipe(
        Effect.timeoutOrElse({
          duration: Duration.seconds(seconds),
          orElse: () => client.runs.get({ params: { id: run.id }, query: {} }),
        }),
      ),
  })
}

const idArgument = Argument.String("id").pipe(Argument.withDescription("the run's id"))
const waitTimeout = Flag.Int("timeout").pipe(Flag.withDescription("stop waiting after this many seconds"), Flag.optional)

/** `codemode run FILE --url URL`: the program runs on the service; prints the run and exits by its status. */
export const runRemote = (flags: Remote & { readonly id: Option.Option<string>; readonly tools: ReadonlyArray<string> }, code: string) =>
  withClient(flags, (client) =>
    client.runs
      .create({
        payload: {
          code,
          ...(Option.isSome(flags.id) ? { id: flags.id.value } : {}),
          ...(flags.tools.length > 0 ? { tools: flags.tools } : {}),
        },
      })
      .pipe(
        Effect.flatMap((run) => settle(client, run, Option.none())),
        Effect.flatMap((run) => reportRun(flags, run)),
      ),
  )

const runsList = Command.make(
  "list",
  {
    ...remoteFlags,
    status: Flag.Literals("status", ["running", "suspended", "succeeded", "failed", "cancelled"] as const).pipe(Flag.optional),
    tool: Flag.String("tool").pipe(Flag.withDescription("only runs that called this tool (its path)"), Flag.optional),
    since: Flag.Date("since").pipe(Flag.withDescription("only runs created at or after this ISO time"), Flag.optional),
    until: Flag.Date("until").pipe(Flag.withDescription("only runs created before this ISO time"), Flag.optional),
    limit: Flag.Int("limit").pipe(Flag.withDescription("at most this many (1–100)"), Flag.optional),
    cursor: Flag.String("cursor").pipe(Flag.withDescription("the nextCursor of the previous page"), Flag.optional),
  },
  (flags) =>
    withClient(flags, (client) =>
      client.runs
        .list({
          query: {
            ...(Option.isSome(flags.status) ? { status: flags.status.value } : {}),
            ...(Option.isSome(flags.tool) ? { tool: flags.tool.value } : {}),
            ...(Option.isSome(flags.since) ? { since: flags.since.value.toISOString() } : {}),
            ...(Option.isSome(flags.until) ? { until: flags.until.value.toISOString() } : {}),
            ...(Option.isSome(flags.limit) ? { limit: flags.limit.value } : {}),
            ...(Option.isSome(flags.cursor) ? { cursor: flags.cursor.value } : {}),
          },
        })
        .pipe(
          Effect.flatMap((page: RunPage) =>
            out(
              flags.json
                ? json(page)
                : [
                    ...page.runs.map((r) => `${r.id}\t${r.status}\t${r.createdAt}`),
                    ...(page.nextCursor === undefined ? [] : [`next page: --cursor ${page.nextCursor}`]),
                  ].join("\n"),
            ),
          ),
        ),
    ),
).pipe(Command.withDescription("List runs, newest first"))

const runsGet = Command.make("get", { ...remoteFlags, id: idArgument }, (flags) =>
  withClient(flags, (client) => client.runs.get({ params: { id: flags.id }, query: {} }).pipe(Effect.flatMap((run) => reportRun(flags, run)))),
).pipe(Command.withDescription("Show a run; exits 0 succeeded or running, 1 failed or cancelled, 3 suspended"))

const runsWait = Command.make("wait", { ...remoteFlags, id: idArgument, timeout: waitTimeout }, (flags) =>
  withClient(flags, (client) =>
    client.runs.get({ params: { id: flags.id }, query: {} }).pipe(
      Effect.flatMap((run) => settle(client, run, flags.timeout)),
      Effect.flatMap((run) => reportRun(flags, run)),
    ),
  ),
).pipe(Command.withDescription("Wait until a run is no longer running, then show it"))

/** How long the history may pause before `events` (without --follow) takes it to be complete. */
const HISTORY_IDLE_MS = 500

const runsEvents = Command.make(
  "events",
  {
    ...remoteFlags,
    id: idArgument,
    follow: Flag.Boolean("follow").pipe(
      Flag.withAlias("f"),
      Flag.withDescription("keep printing new events until the run ends"),
      Flag.withDefault(false),
    ),
  },
  (flags) =>
    withClient(flags, (client) =>
      client.runs.events({ params: { id: flags.id }, query: {} }).pipe(
        Effect.flatMap((events) => {
          // The service streams the history and then follows the run live; without --follow stop once the
          // history has been sent, i.e. when the stream pauses.
          const stream = flags.follow ? events : events.pipe(Stream.timeout(Duration.millis(HISTORY_IDLE_MS)))
          return Stream.runForEach(stream, (e) => out(eventLine(flags, e)))
        }),
      ),
    ),
).pipe(Command.withDescription("Print a run's events (history; --follow: then live, until the run ends)"))

const runsSuspend = Command.make("suspend", { ...remoteFlags, id: idArgument }, (flags) =>
  withClient(flags, (client) =>
    client.runs.suspend({ params: { id: flags.id } }).pipe(Effect.flatMap((run) => out(flags.json ? json(run) : runText(run)))),
  ),
).pipe(Command.withDescription("Suspend a run (refused, exit 4, while a call that cannot be repeated runs)"))

const runsResume = Command.make(
  "resume",
  {
    ...remoteFlags,
    id: idArgument,
    wait: Flag.Boolean("wait").pipe(Flag.withDescription("wait for the run to settle (--no-wait: return at once)"), Flag.withDefault(true)),
  },
  (flags) =>
    withClient(flags, (client) =>
      client.runs.resume({ params: { id: flags.id }, payload: { wait: flags.wait } }).pipe(
        Effect.flatMap((run) => (flags.wait ? settle(client, run, Option.none()) : Effect.succeed(run))),
        Effect.flatMap((run) => reportRun(flags, run)),
      ),
    ),
).pipe(Command.withDescription("Resume a suspended run; exits by the run's status"))

const runsCheckpoints = Command.make("checkpoints", { ...remoteFlags, id: idArgument }, (flags) =>
  withClient(flags, (client) =>
    client.runs.checkpoints({ params: { id: flags.id } }).pipe(
      Effect.flatMap((kept) =>
        out(
          flags.json
            ? json(kept)
            : kept.checkpoints.map((k) => [k.seq, k.calls, k.after?.key ?? "-", k.after?.path ?? "-", k.size, k.createdAt].join("\t")).join("\n"),
        ),
      ),
    ),
  ),
).pipe(Command.withDescription("List the states a run kept at its call boundaries: seq, calls before, the call it follows, size, time"))

const runsFork = Command.make(
  "fork",
  {
    ...remoteFlags,
    id: idArgument,
    at: Flag.Int("at").pipe(Flag.withDescription("the checkpoint's seq (runs checkpoints ID); the latest when absent"), Flag.optional),
    outcomes: Flag.String("outcomes").pipe(
      Flag.withDescription('answers for calls in flight there, as JSON: {"<key>": {"ok": true, "value": …} | {"ok": false, "error": {"message": …}}}'),
      Flag.optional,
    ),
    as: Flag.String("as").pipe(Flag.withDescription("the new run's id (a UUID when absent)"), Flag.optional),
    wait: Flag.Boolean("wait").pipe(Flag.withDescription("wait for the new run to settle (--no-wait: return at once)"), Flag.withDefault(true)),
  },
  (flags) =>
    withClient(flags, (client) =>
      Effect.gen(function* () {
        const outcomes = Option.isSome(flags.outcomes) ? yield* parseJson("--outcomes", flags.outcomes.value) : undefined
        if (outcomes !== undefined && (typeof outcomes !== "object" || outcomes === null || Array.isArray(outcomes))) {
          return yield* usage("--outcomes must be a JSON object keyed by call key")
        }
        const payload = {
          wait: flags.wait,
          ...(Option.isSome(flags.at) ? { at: flags.at.value } : {}),
          ...(Option.isSome(flags.as) ? { id: flags.as.value } : {}),
          // Checked by the service (400, exit 4, naming what is wrong).
          ...(outcomes === undefined ? {} : { outcomes: outcomes as Record<string, ForkOutcome> }),
        }
        const run = yield* client.runs.fork({ params: { id: flags.id }, payload })
        return yield* reportRun(flags, flags.wait ? yield* settle(client, run, Option.none()) : run)
      }),
    ),
).pipe(Command.withDescription("Start a new run from a kept checkpoint of a run (--at, the latest by default); exits by the new run's status"))

const runsCancel = Command.make("cancel", { ...remoteFlags, id: idArgument }, (flags) =>
  withClient(flags, (client) =>
    client.runs.cancel({ params: { id: flags.id } }).pipe(Effect.flatMap((run) => out(flags.json ? json(run) : runText(run)))),
  ),
).pipe(Command.withDescription("Cancel a run, wherever it executes"))

export const runs = Command.make("runs").pipe(
  Command.withDescription("Look at and control runs on a service"),
  Command.withSubcommands([runsList, runsGet, runsWait, runsEvents, runsCheckpoints, runsFork, runsSuspend, runsResume, runsCancel]),
)

// ---------------------------------------------------------------------------------------------------------------
// Calls

const keyArgument = Argument.String("key").pipe(Argument.withDescription("the call's key (<runId>:<callId>)"))

const callsComplete = Command.make(
  "complete",
  {
    ...remoteFlags,
    key: keyArgument,
    output: Flag.String("output").pipe(Flag.withDescription("the call's output, as JSON"), Flag.optional),
    error: Flag.String("error").pipe(Flag.withDescription("fail the call with this message"), Flag.optional),
  },
  (flags) =>
    withClient(flags, (client) =>
      Effect.gen(function* () {
        if (Option.isSome(flags.output) && Option.isSome(flags.error)) return yield* usage("give --output or --error, not both")
        const payload = Option.isSome(flags.error)
          ? { ok: false as const, error: { message: flags.error.value } }
          : Option.isSome(flags.output)
            ? { ok: true as const, output: yield* parseJson("--output", flags.output.value) }
            : { ok: true as const }
        const outcome = yield* client.calls.complete({ params: { key: flags.key }, payload })
        yield* out(flags.json ? json(outcome) : `${outcome.key}\t${outcome.outcome.ok ? "ok" : `failed: ${outcome.outcome.error.message}`}`)
      }),
    ),
).pipe(Command.withDescription("Complete a started durable call with an output (--output JSON) or an error (--error MESSAGE)"))

const callsHeartbeat = Command.make("heartbeat", { ...remoteFlags, key: keyArgument }, (flags) =>
  withClient(flags, (client) =>
    client.calls
      .heartbeat({ params: { key: flags.key } })
      .pipe(Effect.flatMap((beat) => out(flags.json ? json(beat) : `${beat.key}\t${beat.state}`))),
  ),
).pipe(Command.withDescription("Tell the service a durable call's job is alive"))

export const calls = Command.make("calls").pipe(
  Command.withDescription("Complete durable webhook calls"),
  Command.withSubcommands([callsComplete, callsHeartbeat]),
)

const parseJson = (what: string, text: string) =>
  Effect.try({ try: () => JSON.parse(text) as Schema.Json, catch: (e) => usage(`${what} is not JSON: ${(e as Error).message}`) })

// ---------------------------------------------------------------------------------------------------------------
// Tools

const pathArgument = Argument.String("path").pipe(Argument.withDescription("the tool's path, e.g. orders.lookup"))

const toolText = (t: CatalogTool) => `${t.path}\t${t.mode}\t${t.url}\n  ${t.description}\n  ${t.signature.split("\n").join("\n  ")}`

const toolsList = Command.make("list", remoteFlags, (flags) =>
  withClient(flags, (client) =>
    client.tools.list().pipe(
      Effect.flatMap((catalog: Catalog) =>
        out(
          flags.json
            ? json(catalog)
            : [
                ...catalog.namespaces.map((n) => `${n.path}\tnamespace\t${n.description}`),
                ...catalog.tools.map((t) => `${t.path}\t${t.mode}\t${t.description}`),
              ].join("\n") || "no tools",
        ),
      ),
    ),
  ),
).pipe(Command.withDescription("The tool catalog"))

const toolsGet = Command.make("get", { ...remoteFlags, path: pathArgument }, (flags) =>
  withClient(flags, (client) =>
    client.tools.list().pipe(
      Effect.flatMap((catalog) => {
        const tool = catalog.tools.find((t) => t.path === flags.path)
        return tool === undefined
          ? Effect.fail(new CliFailure({ code: ExitCode.service, message: `no tool ${flags.path}` }))
          : out(flags.json ? json(tool) : toolText(tool))
      }),
    ),
  ),
).pipe(Command.withDescription("One tool: its registration and TypeScript signature"))

const toolsSearch = Command.make(
  "search",
  {
    ...remoteFlags,
    query: Argument.String("query").pipe(Argument.withDescription("words, a tool's path or a namespace, as a program's search() takes")),
    limit: Flag.Int("limit").pipe(Flag.withDescription("at most this many (1–100, default 20)"), Flag.optional),
  },
  (flags) =>
    withClient(flags, (client) =>
      client.tools
        .search({ query: { q: flags.query, ...(Option.isSome(flags.limit) ? { limit: flags.limit.value } : {}) } })
        .pipe(
          Effect.flatMap((found: ToolSearch) =>
            out(
              flags.json
                ? json(found)
                : found.results.map((t) => `${t.path}\t${t.score}\t${t.description}`).join("\n") || "no tool matches",
            ),
          ),
        ),
    ),
).pipe(Command.withDescription("Find tools as a program's search() does, best first"))

const toolsPut = Command.make(
  "put",
  {
    ...remoteFlags,
    path: pathArgument,
    file: Flag.FileText("file").pipe(
      Flag.withDescription("a JSON file: { description, input, output?, url, mode, timeoutMs?, heartbeatTimeoutMs? }"),
    ),
  },
  (flags) =>
    withClient(flags, (client) =>
      Effect.gen(function* () {
        const spec = yield* parseJson("--file", flags.file)
        const registered = yield* client.tools.put({ params: { path: flags.path }, payload: spec as never })
        yield* out(flags.json ? json(registered) : `${registered.path}\tsecret ${registered.secret}`)
      }),
    ),
).pipe(Command.withDescription("Register or replace a webhook tool; prints its signing secret"))

const toolsDelete = Command.make("delete", { ...remoteFlags, path: pathArgument }, (flags) =>
  withClient(flags, (client) =>
    client.tools.delete({ params: { path: flags.path } }).pipe(Effect.andThen(out(flags.json ? json({ deleted: flags.path }) : `deleted ${flags.path}`))),
  ),
).pipe(Command.withDescription("Remove a tool"))

export const tools = Command.make("tools").pipe(
  Command.withDescription("Manage the service's webhook tools"),
  Command.withSubcommands([toolsList, toolsGet, toolsSearch, toolsPut, toolsDelete]),
)

export const readProgram = (file: string) =>
  Effect.try({
    try: () => readFileSync(file, "utf8"),
    catch: (e) => usage(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`),
  })
