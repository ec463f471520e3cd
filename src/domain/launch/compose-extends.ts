// compose's `extends:`: a service that extends another (in the same file, or `file:` another compose file) is
// that service with its own keys laid over: image, entrypoint, command and single-value keys replace the base's,
// lists (volumes, ports, environment, devices) add to them (the Compose Specification's merge rules). Words
// another file wrote keep that file and their line there, so a flag is reported where it is written. Pure.
import { posix } from "node:path";
import type { Node } from "yaml";
import type { BuiltImage, MountedScript, Word } from "./model.js";
import type { YamlReader } from "./yaml-node.js";

export interface ComposeFile {
  y: YamlReader;
  services: Node;
}

/** A service read on its own: the parts a run is assembled from. */
export interface Facets {
  /** runtime options before the image (--name, --volume, --env, ...) */
  options: Word[];
  image: Word;
  /** neither image nor build: an override fragment another compose file completes */
  fragment: boolean;
  entrypoint: Word[] | null;
  command: Word[] | null;
  restart: { value: string; line: number } | null;
  gpus: { value: string; line: number } | null;
  startPeriod: { value: string; line: number } | null;
  containerName: string | null;
  /** the `image:` tag as written (a service with a build names the image it makes) */
  tag?: string | null;
  line: number;
  /** the whole argv (entrypoint and command) comes from another file: its path and lines, where its flags are */
  argvFrom?: { file: string; lines: readonly string[] };
  /** built from the repository: what the Dockerfile makes the image run */
  build?: BuiltImage | null;
  mounted?: MountedScript | null;
}

export interface ExtendsScope {
  /** the files `extends: {file: ...}` names, by their repository path */
  extended: ReadonlyMap<string, string>;
  /** the repository directory of the file being read ("" for the root) */
  dir: string;
  depth: number;
  /** the Dockerfiles and scripts services' builds name, by repository path (buildFiles) */
  builds?: ReadonlyMap<string, string>;
  /** the values a build's context and dockerfile are filled from (.env, else the repository's .env.example) */
  buildEnv?: ReadonlyMap<string, string>;
}

/** What a service's `extends:` names: the service, and the file (its repository path) or null. */
export function extendsRef(
  y: YamlReader,
  svc: Node,
  dir: string,
): { service: string; file: string | null; line: number } | null {
  const ext = y.get(svc, "extends");
  if (!ext) return null;
  const service = y.str(ext) ?? y.str(y.get(ext, "service"));
  const file = y.str(y.get(ext, "file"));
  if (!service) return null;
  return {
    service,
    file: file === null ? null : posix.normalize(posix.join(dir, file)),
    line: y.keyLine(svc, "extends"),
  };
}

/** A base service read from another file: its engine argv keeps that file; its runtime options sit on the
 *  `extends:` line of the launch file (the finding a trap raises on them points at the line that brings them). */
export function fromFile(base: Facets, file: string, lines: readonly string[], at: number): Facets {
  // (a word a third file wrote, through that file's own extends:, keeps its file)
  const tag = (w: Word): Word => (w.file ? w : { ...w, file });
  const moved = (w: Word): Word => ({ ...w, line: at });
  return {
    ...base,
    options: base.options.map(moved),
    image: moved(base.image),
    entrypoint: base.entrypoint?.map(tag) ?? null,
    command: base.command?.map(tag) ?? null,
    restart: base.restart && { ...base.restart, line: at },
    gpus: base.gpus && { ...base.gpus, line: at },
    startPeriod: base.startPeriod && { ...base.startPeriod, line: at },
    line: at,
    argvFrom: base.argvFrom ?? (base.entrypoint || base.command ? { file, lines } : undefined),
  };
}

/** The service as compose runs it: its own keys over the base's. */
export function mergeFacets(base: Facets, own: Facets): Facets {
  // (the base's `--name` is the base service's; the extending service's own name wins)
  const baseOptions = own.options.some((w) => w.text === "--name") ? dropName(base.options) : base.options;
  return {
    options: [...baseOptions, ...own.options],
    image: own.fragment ? base.image : own.image,
    fragment: own.fragment && base.fragment,
    entrypoint: own.entrypoint ?? base.entrypoint,
    command: own.command ?? base.command,
    restart: own.restart ?? base.restart,
    gpus: own.gpus ?? base.gpus,
    startPeriod: own.startPeriod ?? base.startPeriod,
    containerName: own.containerName ?? base.containerName,
    tag: own.fragment ? base.tag : (own.tag ?? null),
    line: own.line,
    build: own.fragment ? base.build : own.build,
    mounted: own.mounted ?? base.mounted ?? null,
    // (a service that sets either part of the argv itself has words of both files: each keeps its own)
    ...(!own.entrypoint && !own.command && base.argvFrom ? { argvFrom: base.argvFrom } : {}),
  };
}

function dropName(options: Word[]): Word[] {
  const i = options.findIndex((w) => w.text === "--name");
  return i < 0 ? options : [...options.slice(0, i), ...options.slice(i + 2)];
}
