#!/usr/bin/env node
/**
 * The `codemode` command (issue 6):
 *
 *   codemode serve                       run the HTTP service (configured from the environment; see src/server/config.ts)
 *   codemode migrate                     apply the database migrations and exit
 *   codemode run FILE [--tools FILE]     run a program locally with the library, print its Result as JSON
 *   codemode run FILE --url URL          run it on a server instead (CODEMODE_API_KEY is sent when set)
 *   codemode openapi [--write]           print the OpenAPI document (or write ./openapi.yaml)
 *   codemode keys create --tenant NAME   make an API key bound to a tenant (printed once; only its hash is kept)
 *   codemode keys list | revoke ID       list keys (ids, tenants; never the keys) or revoke one
 *
 * Each command imports only what it needs, so `migrate` never loads the interpreter and `run` never loads the
 * server. Runs as TypeScript on Node 24 (`node src/cli/main.ts`), which strips the types itself.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import type { CodeMode as CodeModeTypes } from "../index.ts"

const usage = `usage: codemode <command>

  serve                      run the HTTP service (PORT, HOST, DATABASE_URL, CODEMODE_API_KEY, ...)
  migrate                    apply database migrations and exit
  run FILE [--tools FILE]    run a program locally and print its Result as JSON
  run FILE --url URL         run a program on a codemode server
  openapi [--write]          print the OpenAPI document, or write ./openapi.yaml
  keys create --tenant NAME [--name LABEL]
                             make an API key for a tenant (DATABASE_URL); the key is printed once
  keys list                  list API keys (id, tenant, name; never the keys)
  keys revoke ID             revoke an API key
`

const flag = (args: Array<string>, name: string): string | undefined => {
  const i = args.indexOf(name)
  if (i === -1) return undefined
  const value = args[i + 1]
  if (value === undefined) fail(`${name} needs a value`)
  args.splice(i, 2)
  return value
}

function fail(message: string): never {
  process.stderr.write(`codemode: ${message}\n\n${usage}`)
  process.exit(2)
}

const serve = async (): Promise<void> => {
  const [{ runMain }, { serve }] = await Promise.all([import("@effect/platform-node/NodeRuntime"), import("../server/main.ts")])
  runMain(serve)
}

const migrate = async (): Promise<void> => {
  const [{ runMain }, Effect, Layer, { ServerConfig }, Database] = await Promise.all([
    import("@effect/platform-node/NodeRuntime"),
    import("effect/Effect"),
    import("effect/Layer"),
    import("../server/config.ts"),
    import("../server/store/postgres/database.ts"),
  ])
  runMain(
    Effect.gen(function* () {
      const applied = yield* Database.migrate
      const latest = yield* Database.appliedMigration
      yield* Effect.sync(() =>
        console.log(
          applied.length === 0
            ? `database is up to date (migration ${latest})`
            : applied.map(([id, name]) => `applied ${String(id).padStart(4, "0")}_${name}`).join("\n"),
        ),
      )
    }).pipe(Effect.provide(Database.clientLayer.pipe(Layer.provide(ServerConfig.layer)))),
  )
}

/** `codemode keys …`: against the configured database (migrated first, so the table exists). */
const keys = async (args: Array<string>): Promise<void> => {
  const [action, ...rest] = args
  const tenant = flag(rest, "--tenant")
  const name = flag(rest, "--name")
  if (action === "create" && (tenant === undefined || rest.length > 0)) fail("keys create needs --tenant NAME")
  if (action === "list" && rest.length > 0) fail("keys list takes no arguments")
  if (action === "revoke" && rest.length !== 1) fail("keys revoke needs the key's ID")
  if (action !== "create" && action !== "list" && action !== "revoke") fail("keys needs create, list or revoke")
  const [{ runMain }, Effect, Layer, { ServerConfig }, Database, { ApiKeys }, Keys] = await Promise.all([
    import("@effect/platform-node/NodeRuntime"),
    import("effect/Effect"),
    import("effect/Layer"),
    import("../server/config.ts"),
    import("../server/store/postgres/database.ts"),
    import("../server/keys.ts"),
    import("../server/store/postgres/keys.ts"),
  ])
  runMain(
    Effect.gen(function* () {
      const store = yield* ApiKeys
      if (action === "create") {
        const made = yield* store.create(tenant!, name)
        yield* Effect.sync(() => {
          console.error(`created key ${made.id} for tenant ${made.tenant}; it is shown only this once:`)
          console.log(made.key)
        })
      } else if (action === "list") {
        const all = yield* store.list
        yield* Effect.sync(() => {
          for (const k of all) {
            console.log([k.id, k.tenant, k.name ?? "-", k.createdAt.toISOString(), k.revoked ? "revoked" : "valid"].join("\t"))
          }
        })
      } else {
        const revoked = yield* store.revoke(rest[0]!)
        if (!revoked) return yield* Effect.fail(new Error(`no valid key with id ${rest[0]}`))
        yield* Effect.sync(() => console.log(`revoked ${rest[0]}`))
      }
    }).pipe(Effect.provide(ApiKeys.layer.pipe(Layer.provide(Keys.layer), Layer.provide(Database.layer), Layer.provide(ServerConfig.layer)))),
  )
}

const runLocal = async (code: string, toolsFile: string | undefined): Promise<boolean> => {
  const [Effect, { CodeMode }] = await Promise.all([import("effect/Effect"), import("../index.ts")])
  const tools =
    toolsFile === undefined ? undefined : ((await import(pathToFileURL(resolve(toolsFile)).href)) as { default?: unknown }).default
  if (toolsFile !== undefined && (typeof tools !== "object" || tools === null)) {
    fail(`${toolsFile} must have a default export: the tools record ({ name: Tool.make(...), ... })`)
  }
  const runtime = CodeMode.make({ engine: "vm", ...(tools === undefined ? {} : { tools: tools as CodeModeTypes.ToolTree }) })
  // A tools file's tools may need services of their own; it is the file's job to provide them.
  const result = await Effect.runPromise(runtime.execute(code) as import("effect/Effect").Effect<CodeModeTypes.Result>)
  console.log(JSON.stringify(result, null, 2))
  return result.ok
}

const runRemote = async (code: string, url: string): Promise<boolean> => {
  const [Effect, { CodeModeClient }] = await Promise.all([import("effect/Effect"), import("../client/index.ts")])
  const run = await Effect.runPromise(
    Effect.gen(function* () {
      const client = yield* CodeModeClient
      return yield* client.runs.create({ payload: { code } })
    }).pipe(Effect.provide(CodeModeClient.layer({ baseUrl: url, apiKey: process.env["CODEMODE_API_KEY"] || undefined }))),
  )
  console.log(JSON.stringify(run, null, 2))
  return run.status === "succeeded"
}

const main = async (argv: Array<string>): Promise<void> => {
  const [command, ...args] = argv
  switch (command) {
    case "serve":
      return serve()
    case "migrate":
      return migrate()
    case "run": {
      const url = flag(args, "--url")
      const tools = flag(args, "--tools")
      const [file, ...rest] = args
      if (file === undefined || rest.length > 0) fail("run needs exactly one FILE")
      const code = readFileSync(file, "utf8")
      const ok = url === undefined ? await runLocal(code, tools) : await runRemote(code, url)
      process.exitCode = ok ? 0 : 1
      return
    }
    case "keys":
      return keys(args)
    case "openapi": {
      const { yaml } = await import("../server/openapi.ts")
      if (args.includes("--write")) {
        writeFileSync(new URL("../../openapi.yaml", import.meta.url), yaml())
        console.log("wrote openapi.yaml")
      } else process.stdout.write(yaml())
      return
    }
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(usage)
      return
    default:
      fail(`unknown command ${command}`)
  }
}

await main(process.argv.slice(2))
