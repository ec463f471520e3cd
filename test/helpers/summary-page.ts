// A job summary as GitHub shows it: GitHub-flavoured markdown (micromark + GFM, a CommonMark/GFM
// reference implementation) in GitHub's own stylesheet (github-markdown-css), in headless Chromium.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import puppeteer, { type Browser } from "puppeteer-core";

const require = createRequire(import.meta.url);
const CSS = readFileSync(require.resolve("github-markdown-css/github-markdown-light.css"), "utf8");

export function summaryHtml(markdown: string): string {
  // GitHub keeps <details>/<summary> in summaries; the markdown never carries other raw HTML.
  const body = micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  return `<!doctype html><html><head><meta charset="utf-8"><style>${CSS}
body { margin: 0; background: #fff; } .markdown-body { box-sizing: border-box; width: 1012px; padding: 32px; }</style></head>
<body><article class="markdown-body">${body}</article></body></html>`;
}

/** The browser: CHROME_PATH, else Debian's chromium (apt), else a runner's Chrome; null when none is installed. */
export function chromePath(env: NodeJS.ProcessEnv = process.env): string | null {
  for (const p of [env.CHROME_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"])
    if (p && existsSync(p)) return p;
  return null;
}

export async function launch(path: string): Promise<Browser> {
  return puppeteer.launch({
    executablePath: path,
    headless: true,
    // root in CI: no user namespace sandbox; no GPU here.
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--font-render-hinting=none"],
    timeout: 60_000,
  });
}
