/** Server-rendered HTML: every piece of text goes through `esc`; pages share one small layout. */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function esc(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const STYLE = `
*{box-sizing:border-box}
body{font:15px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
header.top{display:flex;gap:1em;align-items:center;justify-content:space-between;padding:.6em 1em;background:#24292f;color:#fff}
header.top a{color:#fff}
main{max-width:980px;margin:0 auto;padding:1em}
a{color:#0969da}
pre,code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{white-space:pre-wrap;word-break:break-word;background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:.6em;margin:.4em 0;max-height:60vh;overflow:auto}
.card{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:.8em 1em;margin:.8em 0}
.muted{color:#59636e}
.state{font-weight:600}
.state-succeeded,.ok{color:#1a7f37}.state-failed,.err{color:#cf222e}.state-running,.state-queued{color:#9a6700}.state-cancelled{color:#59636e}
ol.items{list-style:none;padding:0;margin:0}
.lane{border-left:3px solid #d0d7de;padding-left:.7em;margin:.5em 0}
ol.items>li{border-top:1px solid #eaeef2;padding:.4em 0}
.turn{font-weight:600;color:#59636e;font-size:13px}
.tool-h{display:flex;flex-wrap:wrap;gap:.4em;align-items:baseline}
.tool-h code{word-break:break-all}
.text{white-space:pre-wrap;word-break:break-word}
.usage,.note{font-size:13px;color:#59636e}
.note.warn{color:#9a6700}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:.4em .5em;border-bottom:1px solid #eaeef2;vertical-align:top}
.page-title{font-size:1.25em;margin:.2em 0}
.scroll{overflow-x:auto}
.tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:.6em;margin:.8em 0}
.tile{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:.5em .7em}
.tile dt{font-size:12px;color:#59636e}.tile dd{margin:0;font-size:1.35em;font-weight:600}
.tile dd .muted{display:block;font-size:12px;font-weight:400}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,440px),1fr));gap:.8em}
figure.chart{margin:0;background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:.6em .8em;min-width:0}
figure.chart h2{font-size:1em;margin:0 0 .2em}
.legend{list-style:none;display:flex;flex-wrap:wrap;gap:.2em 1em;padding:0;margin:0 0 .2em;font-size:13px;color:#59636e}
.legend li{display:flex;align-items:center;gap:.35em}
svg.plot{display:block;width:100%;height:auto}
svg.plot .grid{stroke:#eaeef2}svg.plot .axis{stroke:#8c959f}
svg.plot text{font-size:11px;fill:#59636e}svg.plot .axis-title{font-size:12px;fill:#1f2328}svg.plot .empty{font-size:13px;fill:#8c959f}
figure.chart details{font-size:13px;margin-top:.3em}
@media (max-width:600px){svg.plot text,svg.plot .axis-title{font-size:16px}}
@media (max-width:600px){main{padding:.5em}.hide-sm{display:none}body{font-size:14px}}
`;

export interface LayoutOptions {
  title: string;
  body: string;
  user?: string;
  /** The CSP nonce of inline scripts. */
  nonce?: string;
  script?: string;
}

export function layout(options: LayoutOptions): string {
  const user = options.user
    ? `<span>${esc(options.user)} · <a href="/auth/logout">sign out</a></span>`
    : "";
  const script = options.script && options.nonce ? `<script nonce="${esc(options.nonce)}">${options.script}</script>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(options.title)}</title><style>${STYLE}</style></head>
<body><header class="top"><nav><a href="/jobs"><b>crewbot</b> jobs</a> · <a href="/insights">insights</a></nav>${user}</header>
<main>${options.body}</main>${script}</body></html>`;
}
