/**
 * `Metrics`: `GET /metrics` in the Prometheus text exposition format
 * (https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format). Counters live in the process
 * and count what this replica did (calls, webhook latency, snapshot bytes saved, resumes); the number of runs by
 * status is read from the database at scrape time, so every replica reports the same, whole-service figures.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** Webhook latency buckets, in seconds. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const

const STATUSES = ["running", "suspended", "succeeded", "failed", "cancelled"] as const

const label = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")

export class Metrics extends Context.Service<
  Metrics,
  {
    /** A tool call settled (`ok` false for a failure). */
    readonly call: (mode: string, ok: boolean) => void
    /** One webhook HTTP attempt took `seconds`; `outcome` is `ok`, or the failure reason. */
    readonly webhook: (seconds: number, outcome: string) => void
    /** A suspended run's state of `bytes` was saved. */
    readonly snapshot: (bytes: number) => void
    readonly resumed: () => void
    /** A run of a replica that died was taken over by this replica. */
    readonly recovered: () => void
    /**
     * The exposition text, with the runs by status (`RunStore.countByStatus`), any extra gauges, and how many
     * resumes continued a run restored ahead of its claim (`prepared`, from the executor, when it prepares).
     */
    readonly render: (
      byStatus: ReadonlyMap<string, number>,
      gauges?: Readonly<Record<string, number>>,
      prepared?: { readonly adopted: number; readonly dropped: number },
    ) => string
  }
>()("codemode/server/Metrics") {
  static readonly layer: Layer.Layer<Metrics> = Layer.effect(
    Metrics,
    Effect.sync(() => {
      const calls = new Map<string, number>()
      const latency = new Map<string, { buckets: Array<number>; sum: number; count: number }>()
      let snapshotBytes = 0
      let snapshots = 0
      let resumes = 0
      let recoveries = 0

      const render = (
        byStatus: ReadonlyMap<string, number>,
        gauges: Readonly<Record<string, number>> = {},
        prepared?: { readonly adopted: number; readonly dropped: number },
      ) => {
        const out: Array<string> = []
        out.push("# HELP codemode_runs Runs by status (all replicas, from the database).", "# TYPE codemode_runs gauge")
        for (const s of STATUSES) out.push(`codemode_runs{status="${s}"} ${byStatus.get(s) ?? 0}`)
        out.push("# HELP codemode_calls_total Tool calls settled on this replica.", "# TYPE codemode_calls_total counter")
        for (const [k, n] of [...calls].sort()) {
          const [mode, outcome] = k.split("\u0000") as [string, string]
          out.push(`codemode_calls_total{mode="${label(mode)}",outcome="${outcome}"} ${n}`)
        }
        out.push(
          "# HELP codemode_webhook_duration_seconds Webhook HTTP attempts made by this replica.",
          "# TYPE codemode_webhook_duration_seconds histogram",
        )
        for (const [outcome, h] of [...latency].sort(([a], [b]) => (a < b ? -1 : 1))) {
          const l = `outcome="${label(outcome)}"`
          LATENCY_BUCKETS.forEach((le, i) => out.push(`codemode_webhook_duration_seconds_bucket{${l},le="${le}"} ${h.buckets[i]}`))
          out.push(`codemode_webhook_duration_seconds_bucket{${l},le="+Inf"} ${h.count}`)
          out.push(`codemode_webhook_duration_seconds_sum{${l}} ${h.sum}`)
          out.push(`codemode_webhook_duration_seconds_count{${l}} ${h.count}`)
        }
        out.push(
          "# HELP codemode_snapshot_bytes_total Bytes of run state saved by suspends on this replica.",
          "# TYPE codemode_snapshot_bytes_total counter",
          `codemode_snapshot_bytes_total ${snapshotBytes}`,
          "# HELP codemode_snapshots_total Run states saved by suspends on this replica.",
          "# TYPE codemode_snapshots_total counter",
          `codemode_snapshots_total ${snapshots}`,
          "# HELP codemode_resumes_total Suspended runs resumed on this replica.",
          "# TYPE codemode_resumes_total counter",
          `codemode_resumes_total ${resumes}`,
          "# HELP codemode_recoveries_total Runs of stopped replicas taken over by this replica.",
          "# TYPE codemode_recoveries_total counter",
          `codemode_recoveries_total ${recoveries}`,
        )
        if (prepared !== undefined) {
          out.push(
            "# HELP codemode_resumes_prepared_total Runs restored ahead of their claim: continued by the resume (adopted), or dropped.",
            "# TYPE codemode_resumes_prepared_total counter",
            `codemode_resumes_prepared_total{outcome="adopted"} ${prepared.adopted}`,
            `codemode_resumes_prepared_total{outcome="dropped"} ${prepared.dropped}`,
          )
        }
        for (const [name, value] of Object.entries(gauges)) out.push(`# TYPE ${name} gauge`, `${name} ${value}`)
        return out.join("\n") + "\n"
      }

      return Metrics.of({
        call: (mode, ok) => {
          const k = `${mode}\u0000${ok ? "ok" : "error"}`
          calls.set(k, (calls.get(k) ?? 0) + 1)
        },
        webhook: (seconds, outcome) => {
          let h = latency.get(outcome)
          if (h === undefined) latency.set(outcome, (h = { buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }))
          LATENCY_BUCKETS.forEach((le, i) => {
            if (seconds <= le) h.buckets[i]!++
          })
          h.sum += seconds
          h.count++
        },
        snapshot: (bytes) => {
          snapshotBytes += bytes
          snapshots++
        },
        resumed: () => {
          resumes++
        },
        recovered: () => {
          recoveries++
        },
        render,
      })
    }),
  )
}
