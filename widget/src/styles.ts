// Everything lives in the shadow root: the host page's styles do not reach in, ours do not leak out.

/**
 * The default colours, when the web chat's theme sets none: the primary colour (launcher, header,
 * send button, the visitor's bubbles) with the text on it, the conversation's background, body text,
 * the assistant's bubbles, secondary text and lines. test/widget/contrast.test.ts checks WCAG AA.
 */
export const LIGHT = {
  primary: "#2563eb",
  onPrimary: "#ffffff",
  background: "#ffffff",
  text: "#111827",
  bubble: "#f1f5f9",
  // Secondary text is also on the assistant's bubble (a reply's sources): AA there too, not only on the background.
  muted: "#5b687c",
  line: "#e2e8f0",
};
export const DARK = {
  primary: "#60a5fa",
  onPrimary: "#0f172a",
  background: "#0f172a",
  text: "#e2e8f0",
  bubble: "#1e293b",
  muted: "#94a3b8",
  line: "#334155",
};
/** Error text on each background. */
export const ERROR = { light: "#b91c1c", dark: "#fca5a5" };

/** WCAG relative luminance of `#rgb` or `#rrggbb`. */
export function luminance(hex: string): number {
  let c = hex.slice(1);
  if (c.length === 3) c = [...c].map((x) => x + x).join("");
  const [r, g, b] = [0, 2, 4].map((i) => {
    const v = parseInt(c.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** White or near-black, whichever reads better on `hex` (the text on a theme's primary colour). */
export function textOn(hex: string): string {
  const l = luminance(hex);
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? "#ffffff" : "#0f172a";
}

const vars = (t: typeof LIGHT) =>
  `--p:${t.primary};--pt:${t.onPrimary};--nav:${t.onPrimary};--bg:${t.background};` +
  `--bt:${t.text};--bb:${t.bubble};--muted:${t.muted};--line:${t.line}`;

/** A text box's frame, font and colours: the composer's, the pre-chat form's fields', the rating's comment's. */
export const TEXT_BOX = "border:1px solid var(--line);font:inherit;background:var(--bg);color:var(--bt);";

export const CSS = `
:host{all:initial;${vars(LIGHT)};--ut:var(--pt);--ub:var(--p);--bs:none;--us:none;
font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--bt)}
:host(.dark){${vars(DARK)}}
*{box-sizing:border-box}
button{font:inherit;cursor:pointer}
.launcher{
  position:fixed;
  right:20px;
  bottom:20px;
  width:56px;
  height:56px;
  border-radius:50%;
  border:0;
  background:var(--p);
  color:var(--pt);
  box-shadow:0 6px 20px rgba(0,0,0,.25);
  display:grid;
  place-items:center;
  z-index:2147483000;
  transition:transform .15s;
}
.launcher:hover{transform:scale(1.06)}
.launcher:focus-visible,button:focus-visible,textarea:focus-visible,input:focus-visible,a:focus-visible{
  outline:3px solid var(--p);
  outline-offset:2px;
}
.launcher svg{width:28px;height:28px;fill:currentColor}
.launcher .unread{
  position:absolute;
  top:-4px;
  right:-4px;
  min-width:22px;
  height:22px;
  padding:0 6px;
  border-radius:11px;
  background:#c5221f;
  color:#fff;
  font:700 12px/22px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
  text-align:center;
  box-shadow:0 0 0 2px #fff;
}
.panel{
  position:fixed;
  right:20px;
  bottom:88px;
  width:min(400px,calc(100vw - 24px));
  height:min(640px,calc(100vh - 110px));
  background:var(--bg);
  color:var(--bt);
  border-radius:16px;
  box-shadow:0 12px 40px rgba(0,0,0,.28);
  display:flex;
  flex-direction:column;
  overflow:hidden;
  z-index:2147483000;
}
.panel[hidden]{display:none}
/* hidden hides, whatever display a class gives (the composer beside the pre-chat form or a notice was left showing). */
[hidden]{display:none !important}
.page .panel{position:static;width:100%;height:100vh;height:100dvh;border-radius:0;box-shadow:none;max-width:none}
@media (max-width:480px){.panel{right:0;bottom:0;width:100vw;height:100vh;height:100dvh;border-radius:0}}
header{background:var(--p);color:var(--nav);padding:12px 14px;display:flex;align-items:center;gap:10px}
header .t{flex:1;min-width:0}
header h2{font-size:16px;margin:0;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
header p{margin:2px 0 0;font-size:13px;opacity:.9}
header img{width:36px;height:36px;border-radius:50%;object-fit:cover;background:#fff}
.ib{
  background:transparent;
  border:0;
  color:inherit;
  width:34px;
  height:34px;
  border-radius:8px;
  display:grid;
  place-items:center;
  padding:0;
}
.ib:hover{background:rgba(255,255,255,.18)}
header .ib:focus-visible{outline-color:var(--nav)}
.ib svg{width:20px;height:20px;fill:currentColor}
.cover{width:100%;max-height:120px;object-fit:cover;display:block}
.log{flex:1;overflow-y:auto;padding:16px 14px;background:var(--bg);display:flex;flex-direction:column;gap:10px}
.row{display:flex;gap:8px;align-items:flex-end;max-width:100%}
.row.visitor{justify-content:flex-end}
.row .av{width:28px;height:28px;border-radius:50%;object-fit:cover;flex:none}
.col{display:flex;flex-direction:column;max-width:82%;min-width:0}
.who{font-size:12px;color:var(--muted);margin:0 0 2px 4px}
.at{font-size:11px;color:var(--muted);margin:2px 4px 0}
.row.visitor .at{align-self:flex-end}
.bubble{
  padding:9px 12px;
  border-radius:14px;
  background:var(--bb);
  color:var(--bt);
  overflow-wrap:anywhere;
  box-shadow:var(--bs);
}
.visitor .bubble{
  background:var(--ub);
  color:var(--ut);
  border-bottom-right-radius:4px;
  box-shadow:var(--us);
  white-space:pre-wrap;
}
.assistant .bubble,.agent .bubble{border-bottom-left-radius:4px}
.bubble p{margin:0 0 .5em}.bubble p:last-child{margin:0}.bubble .h{font-weight:700}
.bubble ul,.bubble ol{margin:.2em 0 .5em;padding-left:1.3em}
.bubble pre{background:rgba(0,0,0,.08);padding:8px;border-radius:8px;overflow-x:auto;font-size:13px}
.bubble code{font-family:ui-monospace,Menlo,monospace;font-size:.92em}
.bubble blockquote{margin:0 0 .5em;padding-left:8px;border-left:3px solid var(--line)}
.bubble a{color:inherit;text-decoration:underline}
sup.c{font-size:11px;color:var(--p);font-weight:700;margin:0 1px}
.typing::after{
  content:"";
  display:inline-block;
  width:6px;
  height:14px;
  background:currentColor;
  margin-left:2px;
  vertical-align:-2px;
  animation:blink 1s steps(2) infinite;
}
@keyframes blink{50%{opacity:0}}
@media (prefers-reduced-motion:reduce){.typing::after{animation:none}.launcher{transition:none}}
.tools{display:flex;gap:2px;margin-top:2px}
.tools button{
  background:transparent;
  border:0;
  color:var(--muted);
  border-radius:6px;
  padding:3px 5px;
  display:grid;
  place-items:center;
}
.tools svg{width:16px;height:16px;fill:currentColor}
.tools button[aria-pressed=true]{color:var(--p)}
.tools button:hover{background:var(--bb)}
.sources{margin-top:6px;font-size:13px;border-top:1px solid var(--line);padding-top:6px}
.sources summary{cursor:pointer;color:var(--muted)}
.sources ol{margin:4px 0 0;padding-left:1.2em}
.sources li{margin-bottom:4px}
.sources .sn{color:var(--muted);display:block}
.toolres{font-size:13px;margin-top:6px}
.toolres pre{white-space:pre-wrap;margin:2px 0 0}
.chips{display:flex;flex-wrap:wrap;gap:6px;padding:0 14px 10px}
.chip{border:1px solid var(--p);color:var(--p);background:var(--bg);border-radius:999px;padding:6px 12px;font-size:14px}
.chip:hover{background:var(--p);color:var(--pt)}
.earlier{align-self:center;cursor:pointer}
.earlier:disabled{opacity:.6;cursor:wait}
form.composer{
  display:flex;
  gap:6px;
  padding:10px;
  border-top:1px solid var(--line);
  background:var(--bg);
  align-items:flex-end;
}
textarea{
  flex:1;
  resize:none;
  ${TEXT_BOX}
  border-radius:12px;
  padding:9px 12px;
  max-height:120px;
  min-height:40px;
}
.send,.mic{
  border-radius:12px;
  width:40px;
  height:40px;
  display:grid;
  place-items:center;
  flex:none;
}
.send{background:var(--p);color:var(--pt);border:0}
.send svg,.mic svg{width:20px;height:20px;fill:currentColor}
.files{display:flex;flex-wrap:wrap;gap:6px;padding:0 10px 8px}.files:empty{display:none}
.files.sent{padding:0;margin-top:4px;justify-content:flex-end}
.file{
  display:inline-flex;
  align-items:center;
  gap:4px;
  max-width:100%;
  border:1px solid var(--line);
  border-radius:999px;
  padding:3px 10px;
  font-size:13px;
  background:var(--bb);
  color:var(--bt);
}
.file:has(.x){padding-right:3px}
.file svg{width:14px;height:14px;fill:currentColor;flex:none}
.file .fn{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;max-width:180px}
.file .x{
  background:transparent;
  border:0;
  color:inherit;
  border-radius:50%;
  width:26px;
  height:26px;
  display:grid;
  place-items:center;
  padding:0;
}
.file .x:hover{background:var(--line)}
.file.bad{border-color:${ERROR.light}}.file.bad .st{color:${ERROR.light}}
:host(.dark) .file.bad{border-color:${ERROR.dark}}:host(.dark) .file.bad .st{color:${ERROR.dark}}
.send:disabled{opacity:.5;cursor:default}
.mic{background:transparent;border:1px solid var(--line);color:var(--bt)}
.mic[aria-pressed=true]{background:#dc2626;color:#fff;border-color:#dc2626}
.foot{text-align:center;font-size:12px;color:var(--muted);padding:0 0 8px;background:var(--bg)}
.foot img{height:14px;vertical-align:middle}
.notice{margin:auto;text-align:center;color:var(--muted);padding:24px}
.shared-link{margin:0;text-align:center;font-size:13px;color:var(--muted);overflow-wrap:anywhere}
.shared-link a{display:block;color:var(--bt)}
.prechat{display:flex;flex-direction:column;gap:8px;padding:16px}
.prechat label{font-size:13px;color:var(--muted)}
.prechat input{
  ${TEXT_BOX}
  border-radius:10px;
  padding:9px 12px;
}
.prechat button,.err button{background:var(--p);color:var(--pt);border:0;border-radius:10px;padding:10px}
.err{color:${ERROR.light};font-size:13px;padding:4px 14px}
:host(.dark) .err{color:${ERROR.dark}}
.who .tag{font-size:11px;border:1px solid var(--line);border-radius:999px;padding:0 6px;margin-left:4px}
.event{
  align-self:center;
  text-align:center;
  font-size:12px;
  color:var(--muted);
  margin:2px 0;
  padding:2px 10px;
  border:1px solid var(--line);
  border-radius:999px;
}
.unsent .bubble{outline:1px dashed ${ERROR.light};outline-offset:1px}
.unsent-note{margin:4px 0 0;font-size:12px;color:${ERROR.light};text-align:right}
:host(.dark) .unsent-note{color:${ERROR.dark}}
.unsent-note.waiting,.unsent-note.elsewhere{color:var(--muted)}
.unsent-note button{
  background:transparent;
  border:1px solid currentColor;
  color:inherit;
  border-radius:999px;
  padding:2px 10px;
  font:inherit;
  margin-left:4px;
}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;
