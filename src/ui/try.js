// Try a program: write one, run it against the registered tools, and watch it run below (the run page itself).
// The draft is kept in sessionStorage, so going to another page and back does not lose it.
import { useState } from "./vendor/hooks.mjs"
import { api } from "./api.js"
import { RunPage } from "./run.js"
import { Failure, html } from "./view.js"

const DRAFT = "codemode.draft"
const EXAMPLE = `// Registered tools are under \`tools\` (see the Tools page), e.g.
//   const order = await tools.orders.lookup({ id: "order_42" })
const answer = 6 * 7
console.log("the answer is", answer)
return { answer }`

export const TryPage = () => {
  const [code, setCode] = useState(sessionStorage.getItem(DRAFT) ?? EXAMPLE)
  const [tools, setTools] = useState("")
  const [timeout, setTimeoutMs] = useState("")
  const [runId, setRunId] = useState(undefined)
  const [error, setError] = useState(undefined)
  const edit = (e) => {
    setCode(e.currentTarget.value)
    sessionStorage.setItem(DRAFT, e.currentTarget.value)
  }
  const run = async (e) => {
    e.preventDefault()
    const filter = tools.split(/[\s,]+/).filter(Boolean)
    try {
      const created = await api("POST", "/v1/runs", {
        code,
        wait: false,
        ...(filter.length === 0 ? {} : { tools: filter }),
        ...(timeout === "" ? {} : { limits: { timeoutMs: Number(timeout) } }),
      })
      setRunId(created.id)
      setError(undefined)
    } catch (err) {
      setError(err)
    }
  }
  // Ctrl/Cmd+Enter runs from inside the editor; Tab keeps moving focus, so the keyboard never gets stuck in it.
  const keys = (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) run(e)
  }
  return html`<section aria-labelledby="try-title">
    <h1 id="try-title">Try a program</h1>
    <form class="try" onSubmit=${run}>
      <label for="program">Program <span class="hint">(Ctrl+Enter runs it)</span></label>
      <textarea id="program" rows="14" spellcheck="false" autocapitalize="off" value=${code} onInput=${edit} onKeyDown=${keys}></textarea>
      <div class="try-options">
        <div class="field"><label for="try-tools">Only these tools</label><input id="try-tools" placeholder="orders, billing.charge" value=${tools} onInput=${(e) => setTools(e.currentTarget.value)} /></div>
        <div class="field"><label for="try-timeout">Timeout (ms)</label><input id="try-timeout" type="number" min="1" value=${timeout} onInput=${(e) => setTimeoutMs(e.currentTarget.value)} /></div>
        <button type="submit" class="primary">Run</button>
      </div>
    </form>
    <${Failure} error=${error} />
    ${runId !== undefined && html`<div class="watch"><p><a href=${`#/runs/${encodeURIComponent(runId)}`}>Open run ${runId} on its own page</a></p><${RunPage} id=${runId} key=${runId} /></div>`}
  </section>`
}
