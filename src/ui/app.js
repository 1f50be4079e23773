// The inspector's shell: the header with its navigation and API key, and the page the hash names
// (#/runs, #/runs/<id>, #/tools, #/try). Routing on the hash keeps every page at /ui, so the server serves one file.
import { render } from "./vendor/preact.mjs"
import { useEffect, useState } from "./vendor/hooks.mjs"
import { apiKey, whenUnauthorized } from "./api.js"
import { html } from "./view.js"
import { RunsPage } from "./runs.js"
import { RunPage } from "./run.js"
import { ToolsPage } from "./tools.js"
import { TryPage } from "./try.js"

const parse = (hash) => {
  const parts = hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent)
  if (parts[0] === "runs" && parts[1]) return { page: "run", id: parts[1] }
  if (parts[0] === "tools") return { page: "tools" }
  if (parts[0] === "try") return { page: "try" }
  return { page: "runs" }
}

const KeyForm = ({ required, onDone }) => {
  const [value, setValue] = useState(apiKey.get())
  const save = (e) => {
    e.preventDefault()
    apiKey.set(value.trim())
    onDone()
  }
  return html`<form class="key-form" onSubmit=${save} aria-label="Enter the API key">
    ${required && html`<p role="alert">This service needs an API key. It is kept for this tab only (session storage).</p>`}
    <label for="api-key">API key</label>
    <input id="api-key" type="password" autocomplete="off" value=${value} onInput=${(e) => setValue(e.currentTarget.value)} />
    <button type="submit">Save</button>
    ${apiKey.get() !== "" && html`<button type="button" onClick=${() => (apiKey.set(""), onDone())}>Forget</button>`}
  </form>`
}

const App = () => {
  const [route, setRoute] = useState(parse(location.hash))
  const [askKey, setAskKey] = useState(undefined)
  // A new key renders the page anew, so it loads again with it.
  const [generation, setGeneration] = useState(0)
  useEffect(() => {
    const onHash = () => setRoute(parse(location.hash))
    addEventListener("hashchange", onHash)
    whenUnauthorized(() => setAskKey("required"))
    return () => removeEventListener("hashchange", onHash)
  }, [])
  useEffect(() => {
    document.title = { runs: "Runs", run: `Run ${route.id}`, tools: "Tools", try: "Try a program" }[route.page] + " · codemode"
  }, [route])
  const link = (href, page, label) =>
    html`<a href=${href} aria-current=${route.page === page || (page === "runs" && route.page === "run") ? "page" : undefined}>${label}</a>`
  const page =
    route.page === "run"
      ? html`<${RunPage} id=${route.id} key=${`${route.id}:${generation}`} />`
      : route.page === "tools"
        ? html`<${ToolsPage} key=${generation} />`
        : route.page === "try"
          ? html`<${TryPage} key=${generation} />`
          : html`<${RunsPage} key=${generation} />`
  return html`<header>
      <a class="brand" href="#/runs">codemode <span>inspector</span></a>
      <nav aria-label="Pages">${link("#/runs", "runs", "Runs")}${link("#/tools", "tools", "Tools")}${link("#/try", "try", "Try a program")}</nav>
      <button type="button" class="key-button" aria-expanded=${askKey !== undefined} onClick=${() => setAskKey(askKey === undefined ? "optional" : undefined)}>
        ${apiKey.get() === "" ? "Set API key" : "API key ✓"}
      </button>
    </header>
    ${askKey !== undefined &&
    html`<${KeyForm} required=${askKey === "required"} onDone=${() => (setAskKey(undefined), setGeneration(generation + 1))} />`}
    <main>${page}</main>`
}

const root = document.getElementById("app")
root.textContent = "" // the "Loading…" placeholder: render() would keep it
render(html`<${App} />`, root)
