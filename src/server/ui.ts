/**
 * The run inspector's files at `/ui` (issue 19): a browser app that talks to the same `/v1` API on the same origin,
 * so API keys and tenancy apply to it unchanged and this module serves files only — no data. The app's own files
 * are in `src/ui/` (the build copies them to `dist/src/ui/`); Preact and htm are served from the installed
 * packages, so nothing is built or downloaded at run time. Every page is `index.html`: the app routes on the hash.
 */
import * as Effect from "effect/Effect"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const UI_DIR = new URL("../ui/", import.meta.url)

/** The app's files by name; a name not listed is a 404, so no path can reach outside the folder. */
const APP_FILES = ["index.html", "app.js", "api.js", "view.js", "highlight.js", "runs.js", "run.js", "timeline.js", "tools.js", "try.js", "style.css"]

/**
 * Vendored modules. The browser cannot resolve the bare specifier `preact` that preact/hooks imports, and an
 * import map would need an inline script, which the content security policy below forbids: the import is
 * rewritten to the file served beside it.
 */
const VENDOR: Record<string, { readonly specifier: string; readonly rewrite?: readonly [string, string] }> = {
  "preact.mjs": { specifier: "preact" },
  "hooks.mjs": { specifier: "preact/hooks", rewrite: ['from"preact"', 'from"./preact.mjs"'] },
  "htm.mjs": { specifier: "htm" },
}

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
}

/** Scripts and styles from this origin only; the API is on this origin too. Nothing may frame the inspector. */
const HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
}

const load = (): ReadonlyMap<string, { readonly body: string; readonly type: string }> => {
  const files = new Map<string, { body: string; type: string }>()
  const typeOf = (name: string) => TYPES[name.slice(name.lastIndexOf(".") + 1)]!
  for (const name of APP_FILES) files.set(name, { body: readFileSync(new URL(name, UI_DIR), "utf8"), type: typeOf(name) })
  for (const [name, { specifier, rewrite }] of Object.entries(VENDOR)) {
    const text = readFileSync(fileURLToPath(import.meta.resolve(specifier)), "utf8")
    files.set(`vendor/${name}`, { body: rewrite === undefined ? text : text.replaceAll(rewrite[0], rewrite[1]), type: typeOf(name) })
  }
  return files
}

const notFound = HttpServerResponse.jsonUnsafe({ error: { kind: "RouteNotFound", message: "No such inspector file" } }, { status: 404 })

/** `GET /ui` (the router takes `/ui/` for it too), `GET /ui/<file>`, `GET /ui/vendor/<module>`. Files are read once, when the routes are built. */
export const routes = HttpRouter.use(
  Effect.fn(function* (router) {
    const files = load()
    const serve = (name: string) => {
      const file = files.get(name)
      return file === undefined ? notFound : HttpServerResponse.text(file.body, { contentType: file.type, headers: HEADERS })
    }
    yield* router.add("GET", "/ui", serve("index.html"))
    yield* router.add("GET", "/ui/:file", Effect.map(HttpRouter.params, (p) => serve(p["file"] ?? "")))
    yield* router.add("GET", "/ui/vendor/:file", Effect.map(HttpRouter.params, (p) => serve(`vendor/${p["file"] ?? ""}`)))
  }),
)
