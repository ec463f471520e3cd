// Shell completions generated from the command spec: bash's is loaded into the real bash and asked, as
// the shell asks it on Tab (complete -p, COMP_WORDS, COMPREPLY); fish's is asked by the real fish, zsh's is
// registered by the real zsh's compinit (.ci/run installs both).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { COMMANDS, OPTION_SPECS, appliesTo } from "../../src/commands/spec.js";

const dir = mkdtempSync(join(tmpdir(), "dg-compl-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function script(shell: string): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(["completion", shell], {
    out: (s) => (out += s),
    err: (s) => (err += s),
    isTTY: false,
    env: {},
    cwd: dir,
  });
  return { code, out, err };
}

/** What bash completes for the words typed so far (the last one being completed), using our script. */
function bashComplete(file: string, words: string[]): string[] {
  const line = words.map((w) => `'${w}'`).join(" ");
  const out = execFileSync(
    "bash",
    [
      "--norc",
      "-c",
      `source ${file}; complete -p deploy-gate; COMP_WORDS=(${line}); COMP_CWORD=${words.length - 1}; COMP_LINE="${words.join(" ")}"; COMP_POINT=\${#COMP_LINE}; _deploy_gate deploy-gate; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: "utf8", cwd: dir },
  );
  return out.split("\n").filter(Boolean);
}

describe("deploy-gate completion", () => {
  it("bash: registered for deploy-gate, completes commands, each command's own options, and positional words", async () => {
    const r = await script("bash");
    expect(r.code).toBe(0);
    const file = join(dir, "dg.bash");
    writeFileSync(file, r.out);
    const [registration, ...commands] = bashComplete(file, ["deploy-gate", ""]);
    expect(registration).toBe("complete -F _deploy_gate deploy-gate");
    expect(commands.sort()).toEqual([...COMMANDS, "help"].sort());
    expect(bashComplete(file, ["deploy-gate", "pre"]).slice(1)).toEqual(["preflight"]);
    const runOpts = bashComplete(file, ["deploy-gate", "run", "--"]).slice(1);
    const want = OPTION_SPECS.filter((o) => appliesTo(o, "run")).map((o) => `--${o.name}`);
    expect(runOpts.sort()).toEqual(want.sort());
    expect(runOpts).not.toContain("--follow");
    // a value of --config is not taken for the command
    expect(bashComplete(file, ["deploy-gate", "--config", "x.yml", "lock", "--fo"]).slice(1)).toEqual(["--force"]);
    expect(bashComplete(file, ["deploy-gate", "lock", "r"]).slice(1)).toEqual(["release"]);
    expect(bashComplete(file, ["deploy-gate", "help", "ro"]).slice(1)).toEqual(["rollback"]);
    writeFileSync(join(dir, "journal.json"), "{}");
    expect(bashComplete(file, ["deploy-gate", "explain", "jou"]).slice(1)).toEqual(["journal.json"]);
  });

  it("zsh and fish: every command and each command's options, from the same spec", async () => {
    const zsh = (await script("zsh")).out;
    const fish = (await script("fish")).out;
    expect(zsh.split("\n")[0]).toBe("#compdef deploy-gate");
    for (const c of COMMANDS) {
      expect(zsh).toContain(`'${c}:`);
      expect(fish).toContain(`-n __fish_use_subcommand -a ${c} `);
    }
    expect(fish).toMatch(/-n '__fish_seen_subcommand_from [^']*\blogs\b[^']*' -l follow /);
    expect(fish).not.toMatch(/-n '__fish_seen_subcommand_from [^']*\bpreflight\b[^']*' -l follow /);
  });

  it("fish: the real fish completes commands and only each command's own options (complete --do-complete)", async () => {
    const file = join(dir, "deploy-gate.fish");
    writeFileSync(file, (await script("fish")).out);
    // HOME in the temp dir: fish writes its own config and history there, never in the user's
    const ask = (line: string) =>
      execFileSync("fish", ["--no-config", "-c", `source ${file}; complete --do-complete '${line}'`], {
        encoding: "utf8",
        cwd: dir,
        env: { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir },
      })
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split("\t")[0]);
    expect(ask("deploy-gate lo")).toEqual(["lock", "logs"]);
    expect(ask("deploy-gate logs --fo")).toEqual(["--follow"]);
    expect(ask("deploy-gate preflight --fo")).toEqual([]);
  });

  it("zsh: the real zsh parses the script and compinit registers it for deploy-gate from its #compdef line", async () => {
    const fpath = join(dir, "zfunc");
    mkdirSync(fpath, { recursive: true });
    writeFileSync(join(fpath, "_deploy-gate"), (await script("zsh")).out);
    execFileSync("zsh", ["-n", join(fpath, "_deploy-gate")]);
    const out = execFileSync(
      "zsh",
      [
        "-f",
        "-c",
        `fpath=(${fpath} $fpath); autoload -Uz compinit; compinit -u -d ${dir}/zcompdump; print -r -- $_comps[deploy-gate]`,
      ],
      { encoding: "utf8", cwd: dir, env: { ...process.env, HOME: dir } },
    );
    expect(out.trim()).toBe("_deploy-gate");
  });

  it("an unknown shell is a usage error naming the three", async () => {
    const r = await script("tcsh");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/completion tcsh: expected bash, zsh or fish/);
  });
});
