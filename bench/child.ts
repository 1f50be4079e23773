/**
 * One engine on one program, in a process of its own (spawned by bench/main.ts): one untimed warm-up run, then
 * `runs` timed runs. Prints one JSON line: the warm-up's result (checked against the other engines) and the times.
 */
import { engineByName } from "./engines.ts"
import { programs } from "./programs.ts"

const [engineName = "", programName = "", runsText = "1"] = process.argv.slice(2)
const program = programs.find((p) => p.name === programName)
if (program === undefined) throw new Error(`no bench program named ${programName}`)
const engine = await engineByName(engineName)

const timeOnce = async (): Promise<{ ms: number; value: unknown }> => {
  const run = engine.prepare(program.code)
  const start = performance.now()
  const value = await run()
  return { ms: performance.now() - start, value }
}

const { value } = await timeOnce()
const times: Array<number> = []
for (let i = 0; i < Number(runsText); i++) times.push((await timeOnce()).ms)
process.stdout.write(`${JSON.stringify({ value, times })}\n`)
