/**
 * The `codemode` command (main.ts is its entry), on Effect's CLI module (`codemode --help`, and `--help` on every command):
 *
 *   serve | migrate | openapi
 *   run FILE [--tools FILE] | run FILE --url URL
 *   runs list|get|wait|events [--follow]|suspend|resume|cancel
 *   calls complete|heartbeat      tools list|get|put|delete      keys create|list|revoke
 *
 * Exit codes: 0 succeeded, 1 the run failed (or was cancelled), 2 usage error, 3 the run is suspended, 4 the service
 * could not be reached or refused. Errors are one line on stderr (`--verbose` adds the whole cause).
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeServices from "@effect/platform-node/NodeServices"
import * as CliError from "effect/cli/CliError"
import * as CliOutput from "effect/cli/CliOutput"
import * as Command from "effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { readFileSync } from "node:fs"
import { root } from "./commands.ts"
import { CliExit, ExitCode } from "./exit.ts"

const version = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url).pathname.replace(/\/dist\/package\.json$/, "/package.json"), "utf8")) as { version: string }).version

/**
 * Help goes to stdout when asked for, to stderr when the command line was incomplete; a usage error is one line
 * per problem, plus where to find help, instead of the whole help text.
 */
const presenter: CliOutput.Presenter = {
  present: (event) =>
    Effect.sync(() => {
      const formatter = CliOutput.defaultFormatter({ colors: false })
      switch (event._tag) {
        case "Help":
          ;(event.reason === "Requested" ? process.stdout : process.stderr).write(`${formatter.formatHelpDoc(event.helpDoc)}\n`)
          return
        case "Version":
          process.stdout.write(`${formatter.formatVersion(event.name, event.version)}\n`)
          return
        case "InvalidInvocation":
          for (const error of event.errors) process.stderr.write(`${event.commandPath.join(" ")}: ${error.message.split("\n")[0]}\n`)
          process.stderr.write(`(see ${event.commandPath.join(" ")} --help)\n`)
      }
    }),
}

let code: number = ExitCode.succeeded

const program = Command.runWith(root, { version })(process.argv.slice(2)).pipe(
  Effect.catch((error: unknown) =>
    Effect.sync(() => {
      if (error instanceof CliExit) code = error.code
      else if (CliError.isCliError(error)) code = ExitCode.usage
      else {
        process.stderr.write(`codemode: ${error instanceof Error ? error.message : String(error)}\n`)
        code = ExitCode.failed
      }
    }),
  ),
  Effect.provide(CliOutput.layerPresenter(presenter)),
  Effect.provide(NodeServices.layer),
)

NodeRuntime.runMain(program, {
  disableErrorReporting: true,
  // Interrupted (Ctrl-C, SIGTERM): 130, as shells expect.
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) ? code : 130),
})
