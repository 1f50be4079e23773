/**
 * The commands that work on this machine: `serve`, `migrate`, `run FILE` (locally, or `--url` on a service),
 * `keys …` (against the database) and `openapi`. Each imports what it needs only when it runs, so `migrate` never
 * loads the interpreter and `run` never loads the server.
 */
import * as Argument from "effect/cli/Argument"
import * as Command from "effect/cli/Command"
import * as Flag from "effect/cli/Flag"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import type { CodeMode as CodeModeTypes } from "../index.ts"
import { CliExit, ExitCode, guard, usage } from "./exit.ts"
import { commonFlags, readProgram, runRemote } from "./remote.ts"

const say = (line: string) => Effect.sync(() => void process.stderr.write(`${line}\n`))

/** Where a database URL points, without its password. */
const describeUrl = (url: string): string => {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.username ? `${u.username}@` : ""}${u.host}${u.pathname}`
  } catch {
    return "the DATABASE_URL (not a valid URL)"
  }
}

const databaseUrl = Config.String("DATABASE_URL").pipe(Config.option)
const pgliteDir = Config.String("PGLITE_DIR").pipe(Config.withDefault("./data/pglite"))

/** Which database the service (or `keys`/`migrate`) will use, said before anything slow happens. */
const databaseLine = Effect.gen(function* () {
  const url = yield* databaseUrl
  return Option.isSome(url) && url.value !== ""
    ? `database ${describeUrl(url.value)}`
    : `embedded database in ${resolve(yield* pgliteDir)} (set DATABASE_URL for PostgreSQL)`
})

export const serve = Command.make("serve", { verbose: commonFlags.verbose }, (flags) =>
  Effect.gen(function* () {
    yield* say(`codemode: ${yield* databaseLine}`)
    const { serve } = yield* Effect.promise(() => import("../server/main.ts"))
    return yield* serve
  }).pipe(guard(flags.verbose)),
).pipe(Command.withDescription("Run the HTTP service (PORT, HOST, DATABASE_URL, CODEMODE_API_KEY, …: see the README)"))

export const migrate = Command.make("migrate", { verbose: commonFlags.verbose }, (flags) =>
  Effect.gen(function* () {
    yield* say(`codemode migrate: ${yield* databaseLine}`)
    const [{ ServerConfig }, Database] = yield* Effect.promise(() => Promise.all([import("../server/config.ts"), import("../server/store/postgres/database.ts")]))
    yield* Effect.gen(function* () {
      const applied = yield* Database.migrate
      const latest = yield* Database.appliedMigration
      yield* Effect.sync(() =>
        console.log(
          applied.length === 0
            ? `database is up to date (migration ${latest})`
            : applied.map(([id, name]) => `applied ${String(id).padStart(4, "0")}_${name}`).join("\n"),
        ),
      )
    }).pipe(Effect.provide(Database.clientLayer.pipe(Layer.provide(ServerConfig.layer))))
  }).pipe(guard(flags.verbose)),
).pipe(Command.withDescription("Apply the database migrations and exit"))

const runLocal = (code: string, toolsFile: Option.Option<string>) =>
  Effect.gen(function* () {
    const { CodeMode } = yield* Effect.promise(() => import("../index.ts"))
    let tools: unknown = undefined
    if (Option.isSome(toolsFile)) {
      const module = yield* Effect.tryPromise({
        try: () => import(pathToFileURL(resolve(toolsFile.value)).href) as Promise<{ default?: unknown }>,
        catch: (e) => usage(`cannot load ${toolsFile.value}: ${(e as Error).message.split("\n")[0]}`),
      })
      tools = module.default
      if (typeof tools !== "object" || tools === null) {
        return yield* usage(`${toolsFile.value} must have a default export: the tools record ({ name: Tool.make(...), ... })`)
      }
    }
    const runtime = CodeMode.make({ engine: "vm", ...(tools === undefined ? {} : { tools: tools as CodeModeTypes.ToolTree }) })
    // A tools file's tools may need services of their own; it is the file's job to provide them.
    const result = yield* (runtime.execute(code) as Effect.Effect<CodeModeTypes.Result>)
    yield* Effect.sync(() => console.log(JSON.stringify(result, null, 2)))
    if (!result.ok) return yield* Effect.fail(new CliExit({ code: ExitCode.failed }))
  })

export const run = Command.make(
  "run",
  {
    ...commonFlags,
    file: Argument.String("file").pipe(Argument.withDescription("the program (JavaScript or TypeScript)")),
    tools: Flag.String("tools").pipe(
      Flag.withDescription("local run: a module whose default export is the tools record"),
      Flag.optional,
    ),
    url: Flag.String("url").pipe(Flag.withDescription("run on this service instead of locally"), Flag.optional),
    apiKey: Flag.String("api-key").pipe(
      Flag.withDescription("with --url: sent as a Bearer token (env CODEMODE_API_KEY)"),
      Flag.withFallbackConfig(Config.String("CODEMODE_API_KEY")),
      Flag.optional,
    ),
    id: Flag.String("id").pipe(Flag.withDescription("with --url: the run's id (default: the service picks one)"), Flag.optional),
    tool: Flag.String("tool").pipe(
      Flag.withDescription("with --url: a tool path or namespace the program may use (repeatable; default all)"),
      Flag.atLeast(0),
    ),
  },
  (flags) =>
    Effect.gen(function* () {
      const code = yield* readProgram(flags.file)
      if (Option.isNone(flags.url)) return yield* runLocal(code, flags.tools)
      if (Option.isSome(flags.tools)) return yield* usage("--tools is for local runs; a service's tools are registered webhooks")
      return yield* runRemote({ ...flags, url: flags.url.value, tools: flags.tool }, code)
    }).pipe(guard(flags.verbose)),
).pipe(
  Command.withDescription(
    "Run a program locally (prints its Result) or on a service with --url (prints the run); exits 0 succeeded, 1 failed, 3 suspended",
  ),
)

export const openapi = Command.make(
  "openapi",
  { write: Flag.Boolean("write").pipe(Flag.withDescription("write ./openapi.yaml instead of printing"), Flag.withDefault(false)) },
  (flags) =>
    Effect.gen(function* () {
      const { yaml } = yield* Effect.promise(() => import("../server/openapi.ts"))
      if (flags.write) {
        writeFileSync(resolve("openapi.yaml"), yaml())
        yield* Effect.sync(() => console.log("wrote openapi.yaml"))
      } else yield* Effect.sync(() => void process.stdout.write(yaml()))
    }),
).pipe(Command.withDescription("Print the service's OpenAPI document"))

// ---------------------------------------------------------------------------------------------------------------
// Keys

const keyFlags = {
  verbose: commonFlags.verbose,
  json: commonFlags.json,
  embedded: Flag.Boolean("embedded").pipe(
    Flag.withDescription("without DATABASE_URL, use the embedded database in PGLITE_DIR"),
    Flag.withDefault(false),
  ),
}

/** Runs `f` with the key store of the configured database; refuses to guess a database. */
const withKeys = <A, E>(
  flags: { readonly verbose: boolean; readonly embedded: boolean },
  f: (store: import("../server/keys.ts").ApiKeys["Service"]) => Effect.Effect<A, E>,
) =>
  Effect.gen(function* () {
    const url = yield* databaseUrl
    if ((Option.isNone(url) || url.value === "") && !flags.embedded) {
      return yield* usage("keys needs DATABASE_URL (the service's database), or --embedded for the embedded one in PGLITE_DIR")
    }
    yield* say(`codemode keys: ${yield* databaseLine}`)
    const [{ ServerConfig }, Database, { ApiKeys }, Keys] = yield* Effect.promise(() =>
      Promise.all([
        import("../server/config.ts"),
        import("../server/store/postgres/database.ts"),
        import("../server/keys.ts"),
        import("../server/store/postgres/keys.ts"),
      ]),
    )
    return yield* Effect.flatMap(ApiKeys, f).pipe(
      Effect.provide(
        ApiKeys.layer.pipe(Layer.provide(Keys.layer), Layer.provide(Database.layer), Layer.provide(ServerConfig.layer)),
      ),
    )
  }).pipe(guard(flags.verbose))

const keysCreate = Command.make(
  "create",
  {
    ...keyFlags,
    tenant: Flag.String("tenant").pipe(Flag.withDescription("the tenant the key acts for")),
    name: Flag.String("name").pipe(Flag.withDescription("a label for the key"), Flag.optional),
  },
  (flags) =>
    withKeys(flags, (store) =>
      store.create(flags.tenant, Option.getOrUndefined(flags.name)).pipe(
        Effect.flatMap((made) =>
          Effect.sync(() => {
            if (flags.json) return console.log(JSON.stringify({ id: made.id, tenant: made.tenant, key: made.key }))
            process.stderr.write(`created key ${made.id} for tenant ${made.tenant}; it is shown only this once:\n`)
            console.log(made.key)
          }),
        ),
      ),
    ),
).pipe(Command.withDescription("Make an API key for a tenant; the key is printed once, only its hash is kept"))

const keysList = Command.make("list", keyFlags, (flags) =>
  withKeys(flags, (store) =>
    store.list.pipe(
      Effect.flatMap((all) =>
        Effect.sync(() => {
          if (flags.json) return console.log(JSON.stringify(all, null, 2))
          for (const k of all) {
            console.log([k.id, k.tenant, k.name ?? "-", k.createdAt.toISOString(), k.revoked ? "revoked" : "valid"].join("\t"))
          }
        }),
      ),
    ),
  ),
).pipe(Command.withDescription("List API keys (id, tenant, name; never the keys)"))

const keysRevoke = Command.make(
  "revoke",
  { ...keyFlags, id: Argument.String("id").pipe(Argument.withDescription("the key's id")) },
  (flags) =>
    withKeys(flags, (store) =>
      store.revoke(flags.id).pipe(
        Effect.flatMap((revoked) =>
          revoked ? Effect.sync(() => console.log(`revoked ${flags.id}`)) : Effect.fail(usage(`no valid key with id ${flags.id}`)),
        ),
      ),
    ),
).pipe(Command.withDescription("Revoke an API key"))

export const keys = Command.make("keys").pipe(
  Command.withDescription("Manage API keys in the service's database (DATABASE_URL)"),
  Command.withSubcommands([keysCreate, keysList, keysRevoke]),
)
