import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Copy, DockerfileParser, Env, From } from 'dockerfile-ast';

/**
 * The Dockerfile read as a builder reads it, to build the image's file system without a Docker
 * engine: each stage's WORKDIR, ENV, COPY (from the build context, less .dockerignore, or from an
 * earlier stage) and RUN, in order; the last stage's USER, HEALTHCHECK and CMD. Only the
 * instructions the project's Dockerfile uses are understood; any other fails the build, so that a
 * new one cannot slip past the test unread.
 */
export interface Stage {
  readonly name: string | null;
  readonly image: string;
  readonly steps: Step[];
  user: string | null;
  workdir: string;
  env: Record<string, string>;
  healthcheck: string[] | null;
  cmd: string[] | null;
}
/** The build host's trust store, as its environment names it (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE), if it does. */
const HOST_TRUST: Record<string, string> = Object.fromEntries(
  ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'].flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])),
);

export type Step = { kind: 'COPY'; from: string | null; sources: string[]; dest: string } | { kind: 'RUN'; command: string; env: Record<string, string> };

/** CMD/HEALTHCHECK in exec (JSON) form only: the shell form would depend on a shell the test does not pin. */
function execForm(args: string, where: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    parsed = null;
  }
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`Dockerfile: ${where} must be in exec form (a JSON array)`);
  return parsed;
}

/** Read with dockerfile-ast (the parser of the Docker language server), so that quoting, continuations and flags are read as Docker reads them. */
export function readDockerfile(file: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(fs.readFileSync(file, 'utf8')).getInstructions()) {
    const keyword = instruction.getKeyword();
    const args = instruction.getArgumentsContent() ?? '';
    if (instruction instanceof From) {
      stages.push({
        name: instruction.getBuildStage(),
        image: `${instruction.getImageName()}:${instruction.getImageTag() ?? 'latest'}`,
        steps: [],
        user: null,
        workdir: '/',
        env: {},
        healthcheck: null,
        cmd: null,
      });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile: ${keyword} before FROM`);
    if (instruction instanceof Env) {
      for (const p of instruction.getProperties()) stage.env[p.getName()] = p.getValue() ?? '';
    } else if (instruction instanceof Copy) {
      const flags = instruction.getFlags();
      if (flags.some((f) => f.getName() !== 'from')) throw new Error(`Dockerfile: COPY ${args}: only --from is understood`);
      const words = instruction.getArguments().map((a) => a.getValue());
      const dest = words.pop()!;
      stage.steps.push({ kind: 'COPY', from: flags[0]?.getValue() ?? null, sources: words, dest });
    } else if (keyword === 'WORKDIR') {
      stage.workdir = path.posix.resolve(stage.workdir, args);
    } else if (keyword === 'RUN') {
      stage.steps.push({ kind: 'RUN', command: args, env: { ...stage.env } });
    } else if (keyword === 'USER') {
      stage.user = args;
    } else if (keyword === 'HEALTHCHECK') {
      const m = /^CMD\s+(\[.*\])$/s.exec(args);
      if (!m) throw new Error('Dockerfile: HEALTHCHECK must run a CMD in exec form');
      stage.healthcheck = execForm(m[1], 'HEALTHCHECK');
    } else if (keyword === 'CMD') {
      stage.cmd = execForm(args, 'CMD');
    } else if (keyword !== 'EXPOSE') {
      throw new Error(`Dockerfile: ${keyword} is not understood by the test's builder`);
    }
  }
  return stages;
}

/** .dockerignore's patterns: a path, a folder, or a glob of one path segment (*.log). */
function ignored(context: string): (relative: string) => boolean {
  const file = path.join(context, '.dockerignore');
  const patterns = fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [];
  const tests = patterns.map((p) => {
    if (p.startsWith('!')) throw new Error('.dockerignore: exceptions (!) are not understood by the test builder');
    const re = new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/.*)?$`);
    return (rel: string) => re.test(rel) || (!p.includes('/') && p.includes('*') && re.test(path.basename(rel)));
  });
  return (rel) => tests.some((t) => t(rel));
}

function copyInto(from: string, to: string, skip: (fromPath: string) => boolean): void {
  if (skip(from)) return;
  const stat = fs.statSync(from);
  if (stat.isDirectory()) {
    fs.mkdirSync(to, { recursive: true });
    for (const entry of fs.readdirSync(from)) copyInto(path.join(from, entry), path.join(to, entry), skip);
  } else {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
  }
}

/**
 * Builds the stages into `root/<stage index>` (each a stage's file system below its WORKDIR's
 * level: paths of the image map to root/<i>/<path>), running each RUN in the stage's WORKDIR with
 * the stage's ENV. Returns the folder of each stage's WORKDIR.
 */
export function buildStages(stages: Stage[], context: string, root: string, log: (line: string) => void = () => undefined): string[] {
  const skip = ignored(context);
  const fsRoot = (i: number) => path.join(root, String(i));
  const inImage = (i: number, p: string) => path.join(fsRoot(i), p);
  stages.forEach((stage, i) => {
    const work = inImage(i, stage.workdir);
    fs.mkdirSync(work, { recursive: true });
    for (const step of stage.steps) {
      if (step.kind === 'COPY') {
        const dest = path.posix.resolve(stage.workdir, step.dest);
        const into = step.dest.endsWith('/') || step.sources.length > 1;
        for (const source of step.sources) {
          let from: string;
          let skipHere = (_: string) => false;
          if (step.from === null) {
            from = path.join(context, source);
            if (!fs.existsSync(from)) throw new Error(`COPY ${source}: not in the build context`);
            skipHere = (p) => skip(path.relative(context, p));
          } else {
            const k = stages.findIndex((s) => s.name === step.from);
            if (k < 0 || k >= i) throw new Error(`COPY --from=${step.from}: no such earlier stage`);
            from = inImage(k, source);
            if (!fs.existsSync(from)) throw new Error(`COPY --from=${step.from} ${source}: the stage has no such path`);
          }
          // A folder's contents go to the destination; a file goes into it when it names a folder.
          const to = into && !fs.statSync(from).isDirectory() ? inImage(i, path.posix.join(dest, path.basename(source))) : inImage(i, dest);
          copyInto(from, to, skipHere);
        }
      } else {
        log(`RUN ${step.command}`);
        execFileSync('sh', ['-c', step.command], {
          cwd: work,
          // Only what a build host gives every build: its PATH, HOME and the trust store its network
          // needs (a machine behind a TLS-inspecting proxy names its CA), never the project's settings.
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', ...HOST_TRUST, ...step.env },
          stdio: ['ignore', 'pipe', 'pipe'],
          maxBuffer: 64 * 1024 * 1024,
        });
      }
    }
  });
  return stages.map((s, i) => inImage(i, s.workdir));
}
