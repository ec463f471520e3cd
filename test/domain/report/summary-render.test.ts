// The job summaries of the three demo runs (fixtures: the JSON reports `npm run demo` wrote against the
// sandbox host: a good change, a dropped tool flag caught at preflight, the same change deployed with
// --skip-preflight) rendered as GitHub renders them, in headless Chromium: the DOM order and the pixels.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PNG } from "pngjs";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../../src/domain/report/finding.js";
import { renderMarkdown } from "../../../src/domain/report/markdown.js";
import { chromePath, launch, summaryHtml } from "../../helpers/summary-page.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "summary");
const SHOTS = join(tmpdir(), "deploy-gate-summary-shots");
const REPO = "https://github.example.com/octo-org/serve-scripts";
const chrome = chromePath();
// CI installs chromium (.ci/run); elsewhere the test says why it did not run.
const required = process.env.CI === "true" || process.env.DEPLOY_GATE_E2E === "required";
let browser: Browser | null = null;

beforeAll(async () => {
  if (chrome) browser = await launch(chrome);
  mkdirSync(SHOTS, { recursive: true });
}, 90_000);
afterAll(async () => {
  await browser?.close();
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const box = async (page: Page, selector: string): Promise<Box> => {
  const b = await page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  return b;
};

/** Pixels inside a box that pass a colour test. */
function count(png: PNG, b: Box, test: (r: number, g: number, bl: number) => boolean): number {
  let n = 0;
  for (let y = Math.max(0, Math.floor(b.y)); y < Math.min(png.height, b.y + b.height); y++) {
    for (let x = Math.max(0, Math.floor(b.x)); x < Math.min(png.width, b.x + b.width); x++) {
      const i = (y * png.width + x) * 4;
      if (test(png.data[i]!, png.data[i + 1]!, png.data[i + 2]!)) n++;
    }
  }
  return n;
}
const red = (r: number, g: number, b: number) => r > 180 && g < 90 && b < 90;
const green = (r: number, g: number, b: number) => g > 150 && r < 140 && b < 140;
const amber = (r: number, g: number, b: number) => r > 200 && g > 150 && b < 80;

async function render(name: string) {
  const report = JSON.parse(readFileSync(join(FIXTURES, `${name}.report.json`), "utf8")) as Report;
  const md = renderMarkdown(report, undefined, { repoUrl: REPO });
  const page = await browser!.newPage();
  await page.setViewport({ width: 1012, height: 800 });
  await page.setContent(summaryHtml(md), { waitUntil: "load" });
  const file = join(SHOTS, `${name}.png`);
  const png = PNG.sync.read(Buffer.from(await page.screenshot({ fullPage: true, type: "png" })));
  writeFileSync(file, PNG.sync.write(png));
  return { report, md, page, png, file };
}

/** The top of each section, in document order, for the order a reader meets them. */
const sectionTops = (page: Page) =>
  page.$$eval(".markdown-body > h2, .markdown-body > h3, .markdown-body > details", (els) =>
    els.map((e) => ({
      tag: e.tagName.toLowerCase(),
      text: (e.textContent ?? "").trim().split("\n")[0]!,
      top: e.getBoundingClientRect().top,
    })),
  );

describe.skipIf(!chrome && !required)("job summary rendered with GitHub's markdown and stylesheet", () => {
  it("has a browser (apt-get install chromium, or CHROME_PATH)", () => expect(chrome).not.toBeNull());

  it("bad change at preflight: the red verdict first, then the failures with copyable commands, then warnings, passes collapsed", async () => {
    const { page, png, report, file } = await render("2-bad-change-preflight");
    const tops = await sectionTops(page);
    expect(tops[0]).toMatchObject({ tag: "h2", text: "deploy-gate run: ❌ FAIL" });
    expect(tops.map((t) => t.text.replace(/ \(\d+\)$/, ""))).toEqual([
      "deploy-gate run: ❌ FAIL",
      "❌ Failures",
      "⚠️ Warnings",
      "5 passed, 1 skipped",
    ]);
    expect(tops.map((t) => t.top)).toEqual([...tops.map((t) => t.top)].sort((a, b) => a - b));
    // The verdict is at the top of the page and its ❌ is painted red.
    const verdict = await box(page, ".markdown-body > h2");
    expect(verdict.y).toBeLessThan(60);
    expect(count(png, verdict, red)).toBeGreaterThan(40);
    // Each failure once: the failures section names each failed check once, nowhere else outside it.
    const failed = report.findings.filter((f) => f.status === "fail");
    const headings = await page.$$eval(".markdown-body > h4", (els) => els.map((e) => e.textContent));
    expect(headings.filter((h) => h?.startsWith("preflight.contracts"))).toHaveLength(1);
    expect(failed.length).toBe(2);
    // The restore commands are a shell block whose text is exactly the commands, on a GitHub code background.
    const sh = await page.$$eval("pre code.language-sh", (els) => els.map((e) => (e as HTMLElement).innerText));
    expect(sh[0]).toMatch(
      /^git show [0-9a-f]{10}:scripts\/serve\.sh \| sed -n '\d+,\d+p'\ngit show [0-9a-f]{10} -- scripts\/serve\.sh \| git apply -R\n?$/,
    );
    const pre = await box(page, "pre:has(code.language-sh)");
    // in the padding, clear of the rounded corner
    const pad = { x: Math.ceil(pre.x) + 12, y: Math.ceil(pre.y) + 4, width: 6, height: 6 };
    expect(count(png, pad, (r, g, b) => r === 0xf6 && g === 0xf8 && b === 0xfa)).toBe(36);
    // Commit ids link to the repository on the server that ran the job.
    const links = await page.$$eval("a", (as) => as.map((a) => a.getAttribute("href") ?? ""));
    expect(links.some((h) => new RegExp(`^${REPO}/commit/[0-9a-f]{40}$`).test(h))).toBe(true);
    expect(links.filter((h) => h.startsWith("mailto:"))).toEqual([]);
    // Passes are collapsed: the table inside <details> takes no space until opened.
    expect(await page.$eval("details", (d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await page.$eval("details table", (t) => t.checkVisibility())).toBe(false);
    await page.click("details > summary");
    expect(await page.$eval("details table", (t) => t.checkVisibility())).toBe(true);
    expect(await page.$$eval("details table tbody tr", (rs) => rs.length)).toBe(6);
    expect(file).toMatch(/\.png$/);
  }, 60_000);

  it("bad change on the host: failures from verify, host names not turned into mail links", async () => {
    const { page, png, md } = await render("3-bad-change-on-the-host");
    expect(md).toMatch(/`root@10\.231\.77\.2:2222`/);
    expect(await page.$$eval("a[href^='mailto:']", (as) => as.length)).toBe(0);
    const tops = await sectionTops(page);
    expect(tops[0]!.text).toBe("deploy-gate run: ❌ FAIL");
    expect(tops[1]!.text).toBe("❌ Failures (3)");
    expect(count(png, await box(page, ".markdown-body > h2"), red)).toBeGreaterThan(40);
    const groups = await page.$$eval(".markdown-body > h4", (els) => els.map((e) => e.textContent));
    expect(groups).toEqual(
      expect.arrayContaining(["verify.kv-capacity", "verify.argv · scripts/serve.sh", "verify.tools"]),
    );
    // The ref's commit in the head line links to the repository.
    expect(await page.$eval(".markdown-body > p a", (a) => a.getAttribute("href"))).toMatch(
      new RegExp(`^${REPO}/commit/[0-9a-f]{40}$`),
    );
  }, 60_000);

  it("good change: a green or amber verdict, no failures section, the passes collapsed", async () => {
    const { page, png, report } = await render("1-good-change");
    const tops = await sectionTops(page);
    expect(report.verdict).not.toBe("fail");
    expect(tops.some((t) => t.text.startsWith("❌"))).toBe(false);
    const verdict = await box(page, ".markdown-body > h2");
    expect(count(png, verdict, report.verdict === "pass" ? green : amber)).toBeGreaterThan(40);
    expect(count(png, verdict, red)).toBe(0);
    expect(tops.at(-1)!.tag).toBe("details");
    expect(await page.$eval("details", (d) => (d as HTMLDetailsElement).open)).toBe(false);
  }, 60_000);
});
