// A run's history drawn on a time axis: one row per tool call (a bar from its start to its outcome, with its input
// and output or error), one per suspension (from run.suspended to run.resumed), and marks for the moments between
// (logs, recoveries, forks, the end). Built from the events the run page follows, so it grows live.
import { useEffect, useState } from "./vendor/hooks.mjs"
import { Json, duration, html } from "./view.js"

const at = (e) => Date.parse(e.data.at)

/** The rows of the timeline, in the order they began. */
export const rowsOf = (events) => {
  const rows = []
  const calls = new Map()
  let suspension
  for (const e of events) {
    const t = at(e)
    const d = e.data
    if (e.event === "call.started") {
      const call = calls.get(d.key)
      if (call !== undefined) {
        call.attempts = d.attempt ?? call.attempts + 1
        continue
      }
      const row = { type: "call", key: d.key, path: d.path, input: d.input, location: d.location, start: t, attempts: d.attempt ?? 1 }
      calls.set(d.key, row)
      rows.push(row)
    } else if (e.event === "call.accepted") {
      const call = calls.get(d.key)
      if (call !== undefined) call.accepted = t
    } else if (e.event === "call.settled") {
      const call = calls.get(d.key)
      if (call !== undefined) Object.assign(call, { end: t, outcome: d.outcome })
    } else if (e.event === "run.suspended") {
      suspension = { type: "suspension", start: t, auto: d.auto === true }
      rows.push(suspension)
    } else if (e.event === "run.resumed" && suspension !== undefined) {
      suspension.end = t
      suspension = undefined
    } else if (e.event === "log" || e.event === "log.truncated") {
      rows.push({ type: "log", start: t, text: d.line ?? d.detail })
    } else if (e.event !== "run.created") {
      rows.push({ type: "mark", start: t, event: e.event, data: d })
    }
  }
  return rows
}

const Outcome = ({ outcome }) =>
  outcome === undefined
    ? html`<p class="pending">waiting for its outcome</p>`
    : outcome.ok
      ? html`<div><h4>Output</h4><${Json} value=${outcome.output} /></div>`
      : html`<div class="call-error"><h4>Error</h4><p><strong>${outcome.error?.kind ?? "Error"}</strong>: ${outcome.error?.message}</p></div>`

const label = (row) =>
  row.type === "call"
    ? html`<strong>${row.path}</strong>${row.location === undefined ? "" : html` <span class="where">line ${row.location.line}</span>`}`
    : row.type === "suspension"
      ? row.auto
        ? "suspended, waiting for a call"
        : "suspended"
      : row.type === "log"
        ? html`log <span class="log-text">${row.text}</span>`
        : row.event.replace(/^run\./, "")

/** `live`: the run goes on, so open bars grow to now. `fork(row)`: a call's fork button, or null. */
export const Timeline = ({ events, live, fork }) => {
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    if (!live) return undefined
    const timer = setInterval(() => setNow(Date.now()), 500)
    return () => clearInterval(timer)
  }, [live])
  if (events.length === 0) return html`<p>No events yet.</p>`
  const rows = rowsOf(events)
  const t0 = at(events[0])
  const last = Math.max(...events.map(at))
  const t1 = live ? Math.max(now, last) : last
  const span = Math.max(t1 - t0, 1)
  const pct = (t) => `${(((t - t0) / span) * 100).toFixed(3)}%`
  const ticks = [0, 0.25, 0.5, 0.75, 1]
  return html`<div class="timeline">
    <div class="axis" aria-hidden="true">
      ${ticks.map((f) => html`<span style=${`left:${f * 100}%`}>${duration(f * span)}</span>`)}
    </div>
    <ol class="rows" aria-label="Events on a time axis">
      ${rows.map((row) => {
        const end = row.end ?? (row.type === "call" || row.type === "suspension" ? t1 : row.start)
        const took = row.type === "call" || row.type === "suspension" ? ` for ${duration(end - row.start)}${row.end === undefined ? " so far" : ""}` : ""
        const state = row.type !== "call" ? "" : row.outcome === undefined ? " running" : row.outcome.ok ? " ok" : " failed"
        return html`<li class=${`row row-${row.type}${state}`} data-key=${row.key}>
          <div class="row-label">${label(row)}<span class="when">at +${duration(row.start - t0)}${took}${row.attempts > 1 ? `, attempt ${row.attempts}` : ""}</span></div>
          <div class="track" aria-hidden="true">
            <span class="bar" style=${`left:${pct(row.start)};width:max(3px, ${pct(t0 + end - row.start)})`}></span>
          </div>
          ${row.type === "call" &&
          html`<div class="row-detail">
            <div><h4>Input</h4><${Json} value=${row.input} /></div>
            <${Outcome} outcome=${row.outcome} />
            ${fork(row)}
          </div>`}
        </li>`
      })}
    </ol>
  </div>`
}
