/**
 * Validates the differential corpus against V8 alone (no codemode engine needed):
 *   npx node test/differential/check-oracle.ts [corpus-dir]
 * Every program runs twice on node:vm. It fails, naming the program, if a program does not parse, times out,
 * settles differently on the two runs, returns something that is not plain data, mutates its returned value after
 * returning (the engine copies the value when the program ends; V8 here reads it a tick later), or returns nothing
 * without a `return` (the engine's REPL rule would then return the last expression instead of null).
 */
import { isDeepStrictEqual } from "node:util"
import { CorpusError, loadCorpus, type Program } from "./corpus.ts"
import { runOracleDetailed, type OracleRun } from "./oracle.ts"
import { plainDataProblem } from "./plain-data.ts"

const problemsOf = (program: Program, first: OracleRun, second: OracleRun): Array<string> => {
  const problems: Array<string> = []
  if (first.syncError === true) problems.push(`did not start: ${JSON.stringify(first.outcome)}`)
  if (first.timedOut || second.timedOut) problems.push("timed out (or never settled)")
  if (!isDeepStrictEqual(first.outcome, second.outcome)) {
    problems.push(`non-deterministic: ${JSON.stringify(first.outcome)} then ${JSON.stringify(second.outcome)}`)
  }
  if (first.notJson !== undefined) problems.push(`not JSON-normalizable: ${first.notJson}`)
  if ("raw" in first && first.notJson === undefined) {
    // A top-level undefined is fine: both sides report it as null.
    const p = first.raw === undefined ? undefined : plainDataProblem(first.raw)
    if (p !== undefined) problems.push(`not plain data: ${p}`)
    // No probe record means the value came from a `return` the probe could not see (none at top level).
    if (first.jsonAtReturn !== undefined && first.jsonAtReturn !== JSON.stringify(first.raw ?? null)) {
      problems.push("returned value mutated after its return statement")
    }
    if (first.raw === undefined && !/\breturn\b/.test(program.code)) problems.push("no `return` statement")
  }
  return problems
}

const run = (program: Program): Promise<OracleRun> => runOracleDetailed(program.code, { probeReturns: true })

const main = async (): Promise<number> => {
  let programs: Array<Program>
  try {
    programs = loadCorpus(process.argv[2]) // an optional directory, for trying out a scratch corpus
  } catch (e) {
    console.error(e instanceof CorpusError ? e.message : e)
    return 1
  }
  const perTopic = new Map<string, number>()
  let bad = 0
  for (const program of programs) {
    perTopic.set(program.topic, (perTopic.get(program.topic) ?? 0) + 1)
    const problems = problemsOf(program, await run(program), await run(program))
    if (problems.length === 0) continue
    bad++
    for (const p of problems) console.error(`FAIL ${program.id} (${program.file}:${program.line}): ${p}`)
  }
  for (const [topic, count] of perTopic) console.log(`${topic.padEnd(24)} ${count}`)
  console.log(`${"total".padEnd(24)} ${programs.length}`)
  console.log(bad === 0 ? "corpus OK on V8" : `${bad} invalid program(s)`)
  return bad === 0 ? 0 : 1
}

process.exitCode = await main()
