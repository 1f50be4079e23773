// One run: its status and timings, its source with each tool call's line marked (and the line it is suspended on,
// or the error's line), the timeline of its events followed live, its result, logs and warnings, and the buttons
// that steer it (suspend, resume, cancel, and fork from a call with an edited outcome).
import { useEffect, useRef, useState } from "./vendor/hooks.mjs"
import { api, follow } from "./api.js"
import { Timeline } from "./timeline.js"
import { Code, ENDED, Failure, Json, Status, Time, duration, html } from "./view.js"

/**
 * The line of each call: where the service recorded it was made. A call recorded before the service kept
 * locations has none: then the first line of the source that calls the tool's last name (`lookup(`), which is
 * right for any program that calls it once.
 */
const lineOf = (call, lines) => {
  if (call.location?.line !== undefined) return call.location.line
  const name = call.path.split(".").at(-1).replaceAll("$", "\\$")
  const calls = new RegExp(`(^|[^\\w$])${name}\\s*\\(`)
  const i = lines.findIndex((l) => calls.test(l))
  return i < 0 ? undefined : i + 1
}

const marksOf = (source, run, events) => {
  const lines = source.split("\n")
  const marks = new Map()
  const put = (line, kind, label) => line !== undefined && marks.set(line, { kind, label })
  for (const e of events) if (e.event === "call.started") put(lineOf(e.data, lines), "call", `calls ${e.data.path}`)
  for (const c of run.result?.toolCalls ?? []) if (c.location !== undefined && !marks.has(c.location.line)) put(c.location.line, "call", `calls ${c.path}`)
  if (run.status === "suspended") for (const c of run.pendingCalls ?? []) put(lineOf(c, lines), "suspended", `suspended here, waiting for ${c.path}`)
  if (run.status === "running") for (const c of run.pendingCalls ?? []) put(lineOf(c, lines), "running", `waiting for ${c.path}`)
  const error = run.result?.ok === false ? run.result.error : undefined
  if (error?.location !== undefined) put(error.location.line, "error", `${error.kind}: ${error.message}`)
  return marks
}

const ForkForm = ({ run, row, checkpoint, onDiscard }) => {
  const initial = row.outcome === undefined ? { ok: true, value: null } : row.outcome.ok ? { ok: true, value: row.outcome.output } : { ok: false, error: { message: row.outcome.error?.message ?? "" } }
  const [text, setText] = useState(JSON.stringify(initial, null, 2))
  const [error, setError] = useState(undefined)
  const submit = async (e) => {
    e.preventDefault()
    try {
      const outcome = JSON.parse(text)
      const forked = await api("POST", `/v1/runs/${encodeURIComponent(run.id)}/fork`, { at: checkpoint.seq, outcomes: { [row.key]: outcome }, wait: false })
      location.hash = `#/runs/${encodeURIComponent(forked.id)}`
    } catch (err) {
      setError({ kind: err instanceof SyntaxError ? "InvalidJson" : err.kind, message: err.message })
    }
  }
  const id = `fork-${row.key}`
  return html`<form class="fork" onSubmit=${submit}>
    <label for=${id}>Outcome of ${row.path} in the new run (<code>{"ok": true, "value": …}</code> or <code>{"ok": false, "error": {"message": …}}</code>)</label>
    <textarea id=${id} rows="8" spellcheck="false" value=${text} onInput=${(e) => setText(e.currentTarget.value)}></textarea>
    <${Failure} error=${error} />
    <div class="fork-actions"><button type="submit" class="primary">Fork the run</button><button type="button" onClick=${onDiscard}>Discard</button></div>
  </form>`
}

export const RunPage = ({ id }) => {
  const [run, setRun] = useState(undefined)
  const [events, setEvents] = useState([])
  const [error, setError] = useState(undefined)
  const [busy, setBusy] = useState(false)
  const [checkpoints, setCheckpoints] = useState([])
  const [forking, setForking] = useState(undefined)
  const reload = useRef(undefined)
  const path = `/v1/runs/${encodeURIComponent(id)}`

  useEffect(() => {
    const stop = new AbortController()
    let timer
    const refresh = () => api("GET", path).then((r) => stop.signal.aborted || setRun(r), (e) => stop.signal.aborted || setError(e))
    // Many events arrive together (a history replayed): the run is read again once they have.
    reload.current = () => {
      clearTimeout(timer)
      timer = setTimeout(refresh, 150)
    }
    refresh()
    ;(async () => {
      let last
      // The stream ends when the run has ended; it also ends when its replica shuts down: then follow it again.
      for (;;) {
        last = await follow(id, (e) => (setEvents((all) => [...all, e]), reload.current()), stop.signal, last).catch((e) => (setError(e), null))
        if (stop.signal.aborted || last === null) return
        const now = await api("GET", path).catch(() => undefined)
        if (now === undefined || ENDED.has(now.status)) return refresh()
        await new Promise((ok) => setTimeout(ok, 500))
      }
    })()
    return () => (stop.abort(), clearTimeout(timer))
  }, [id])

  // The kept states a fork can start from: read again when the run's status or its number of calls changes.
  const calls = events.filter((e) => e.event === "call.started").length
  useEffect(() => {
    if (run !== undefined) api("GET", `${path}/checkpoints`).then((c) => setCheckpoints(c.checkpoints), () => setCheckpoints([]))
  }, [run?.status, calls])

  const act = (action) => async () => {
    setBusy(true)
    try {
      setRun(await api("POST", `${path}/${action}`, action === "resume" ? { wait: false } : undefined))
      setError(undefined)
    } catch (e) {
      setError(e)
    } finally {
      setBusy(false)
    }
  }

  if (run === undefined) return error === undefined ? html`<p aria-busy="true">Loading run ${id}…</p>` : html`<h1>Run ${id}</h1><${Failure} error=${error} />`
  const ended = ENDED.has(run.status)
  const result = run.result
  const logs = result?.logs ?? events.filter((e) => e.event === "log").map((e) => e.data.line)
  const forkButton = (row) => {
    // A state kept while this call was in flight (taken as it was sent: before it settled); a fork from it gets
    // the edited outcome for the call. A checkpoint's `after.outcome` is the call's outcome now, so time tells.
    const checkpoint = checkpoints.find((k) => k.after?.key === row.key && (row.end === undefined || Date.parse(k.createdAt) <= row.end))
    if (checkpoint === undefined) return null
    return forking === row.key
      ? html`<${ForkForm} run=${run} row=${row} checkpoint=${checkpoint} onDiscard=${() => setForking(undefined)} />`
      : html`<button type="button" class="fork-button" onClick=${() => setForking(row.key)}>Fork from this call…</button>`
  }
  return html`<article aria-labelledby="run-title">
    <h1 id="run-title">Run <code>${run.id}</code> <span aria-live="polite"><${Status} status=${run.status} /></span></h1>
    <dl class="facts">
      <div><dt>Created</dt><dd><${Time} at=${run.createdAt} /></dd></div>
      <div><dt>${ended ? "Ended" : "Updated"}</dt><dd><${Time} at=${run.updatedAt} /></dd></div>
      ${ended && html`<div><dt>Took</dt><dd>${duration(Date.parse(run.updatedAt) - Date.parse(run.createdAt))}</dd></div>`}
      <div><dt>Tool calls</dt><dd>${result?.toolCalls.length ?? calls}</dd></div>
      ${run.forkedFrom !== undefined && html`<div><dt>Forked from</dt><dd><a href=${`#/runs/${encodeURIComponent(run.forkedFrom.run)}`}>${run.forkedFrom.run}</a>, checkpoint ${run.forkedFrom.checkpoint}</dd></div>`}
    </dl>
    <div class="actions" role="group" aria-label="Steer the run">
      <button type="button" disabled=${busy || run.status !== "running"} onClick=${act("suspend")}>Suspend</button>
      <button type="button" disabled=${busy || run.status !== "suspended"} onClick=${act("resume")}>Resume</button>
      <button type="button" disabled=${busy || ended} onClick=${act("cancel")}>Cancel</button>
    </div>
    <${Failure} error=${error} />
    <div class="run-grid">
      <section aria-labelledby="source-title">
        <h2 id="source-title">Program</h2>
        ${run.code === undefined
          ? html`<p>The service did not send the program.</p>`
          : html`<${Code} source=${run.code} marks=${marksOf(run.code, run, events)} label=${`The program of run ${run.id}`} />`}
      </section>
      <section aria-labelledby="result-title">
        <h2 id="result-title">Result</h2>
        ${result === undefined
          ? html`<p>${run.status === "suspended" ? "Suspended: it continues when resumed." : "Not settled yet."}</p>`
          : result.ok
            ? html`<${Json} value=${result.value} />`
            : html`<${Failure} error=${{ ...result.error, message: `${result.error.message}${result.error.location ? ` (line ${result.error.location.line}, column ${result.error.location.column})` : ""}` }} />`}
        ${(result?.warnings ?? []).length > 0 &&
        html`<h3>Warnings</h3><ul class="warnings">${result.warnings.map((w) => html`<li><strong>${w.kind}</strong>: ${w.message}</li>`)}</ul>`}
        <h3>Logs</h3>
        ${logs.length === 0 ? html`<p>No logs.</p>` : html`<pre class="logs">${logs.join("\n")}</pre>`}
      </section>
    </div>
    <section aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <${Timeline} events=${events} live=${!ended} fork=${forkButton} />
    </section>
  </article>`
}
