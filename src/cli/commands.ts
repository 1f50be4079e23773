/**
 * The `codemode` command tree, apart from app.ts, which runs it as the process: tests walk it in their own
 * process (every command's --help) without starting a CLI for each.
 */
import * as Command from "effect/cli/Command"
import { keys, migrate, openapi, run, serve } from "./local.ts"
import { calls, runs, tools } from "./remote.ts"

export const root = Command.make("codemode").pipe(
  Command.withDescription("Run bounded JavaScript programs locally or on a codemode execution service"),
  Command.withSubcommands([serve, migrate, run, runs, calls, tools, keys, openapi]),
)
