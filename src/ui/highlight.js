// A small tokenizer for the syntax highlighting of programs and signatures: comments, strings and templates,
// numbers, keywords, literals, names and punctuation. It only colours text — every character of the source comes
// out exactly once, in order — so a construct it reads wrongly is drawn in the wrong colour, never lost.
// It answers lines of tokens, since the inspector marks lines (calls, the suspended line, the error line).

const KEYWORDS = new Set(
  ("await async break case catch class const continue debugger default delete do else export extends finally for " +
    "function if import in instanceof let new of return static super switch this throw try typeof var void while " +
    "with yield type interface readonly").split(" "),
)
const LITERALS = new Set(["true", "false", "null", "undefined", "NaN", "Infinity"])

// One alternation, tried in order at each position: the first group that matches names the token.
const TOKEN = new RegExp(
  [
    /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))/.source, // 1 comment
    /("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|`(?:[^`\\]|\\[\s\S])*`?)/.source, // 2 string or template
    /(\b(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*(?:\.[\d_]*)?(?:[eE][+-]?\d+)?n?)|\.\d[\d_]*(?:[eE][+-]?\d+)?)/.source, // 3 number
    /([A-Za-z_$][\w$]*)/.source, // 4 name or keyword
    /(\s+)/.source, // 5 space
    /([^\sA-Za-z_$\d"'`/]+|\/)/.source, // 6 punctuation
  ].join("|"),
  "gy",
)

const kindOf = (m) => {
  if (m[1] !== undefined) return "comment"
  if (m[2] !== undefined) return "string"
  if (m[3] !== undefined) return "number"
  if (m[4] !== undefined) return KEYWORDS.has(m[4]) ? "keyword" : LITERALS.has(m[4]) ? "literal" : "name"
  if (m[5] !== undefined) return "space"
  return "punct"
}

/** The source as lines of `{ kind, text }`; a token spanning lines (a block comment, a template) is split. */
export const highlight = (source) => {
  const lines = [[]]
  TOKEN.lastIndex = 0
  let at = 0
  while (at < source.length) {
    TOKEN.lastIndex = at
    const m = TOKEN.exec(source)
    // Nothing matches only where the alternation cannot (it covers every character): take one as punctuation.
    const text = m === null ? source[at] : m[0]
    const kind = m === null ? "punct" : kindOf(m)
    const parts = text.split("\n")
    parts.forEach((part, i) => {
      if (i > 0) lines.push([])
      if (part !== "") lines.at(-1).push({ kind, text: part })
    })
    at += text.length
  }
  return lines
}
