/**
 * The differential harness: run the same program on V8 (the oracle, node:vm) and on a codemode engine, reduce
 * both runs to an `Outcome`, compare. This module is the single entry point for tests and scripts that need both
 * sides; `check-oracle.ts` imports the oracle side only, so it runs before the engine exists.
 */
export { corpusDir, CorpusError, loadCorpus, parseCorpusFile, type Program } from "./corpus.ts"
export { ENGINE_TIMEOUT_MS, runEngine, runEngineResult, type Engine } from "./engine.ts"
export { ORACLE_TIMEOUT_MS, runOracle, runOracleDetailed, wrapProgram, type OracleRun } from "./oracle.ts"
export {
  normalizeEngineResult,
  normalizeThrown,
  normalizeValue,
  sameOutcome,
  type EngineResultLike,
  type Json,
  type Outcome,
} from "./outcome.ts"
