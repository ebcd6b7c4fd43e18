// Finds the oomlint executable: the configured path when there is one,
// else the first `oomlint` on PATH (with PATHEXT's extensions on Windows).
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

export interface Lookup {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** Whether FILE exists and may be run; replaceable for tests. */
  isExecutable: (file: string) => boolean;
}

function defaultIsExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    // Windows has no execute bit: an existing file with a PATHEXT extension runs
    if (process.platform !== "win32") fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const defaultLookup: Lookup = {
  env: process.env,
  platform: process.platform,
  isExecutable: defaultIsExecutable,
};

/** The first NAME on the lookup's PATH, or undefined. */
export function findOnPath(name: string, lookup: Lookup = defaultLookup): string | undefined {
  const win = lookup.platform === "win32";
  const paths = win ? path.win32 : path.posix;
  // Windows spells it Path; the environment object there is case-insensitive, a test's is not
  const pathVar = lookup.env.PATH ?? lookup.env.Path ?? "";
  const extensions = win ? ["", ...(lookup.env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean)] : [""];
  for (const dir of pathVar.split(win ? ";" : ":")) {
    if (!dir) continue; // an empty entry would mean the editor's working directory: not trusted
    for (const ext of extensions) {
      const candidate = paths.join(dir.replace(/^"(.*)"$/, "$1"), name + ext);
      if (lookup.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The executable to run: CONFIGURED (with `~` expanded) when set, else
 *  `oomlint` from PATH; undefined when neither gives one. */
export function resolveServerPath(configured: string | undefined, lookup: Lookup = defaultLookup): string | undefined {
  const value = (configured ?? "").trim();
  if (value) {
    if (value === "~" || value.startsWith("~/")) return path.join(os.homedir(), value.slice(1));
    return value;
  }
  return findOnPath("oomlint", lookup);
}
