// Unit tests of the executable lookup (src/findBinary.ts) on real temporary
// folders: PATH order, non-executable files, empty entries, Windows PATHEXT.
import { after, test } from "node:test";
import * as assert from "node:assert/strict";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { defaultLookup, findOnPath, Lookup, resolveServerPath } from "../src/findBinary";

// every folder made, removed when the file's tests are done
const made: string[] = [];
after(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oomlint-lookup-"));
  made.push(dir);
  return dir;
}

function file(dir: string, name: string, mode: number): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, "#!/bin/sh\n");
  fs.chmodSync(p, mode);
  return p;
}

function posix(PATH: string): Lookup {
  return { ...defaultLookup, env: { PATH }, platform: "linux" };
}

test("finds the first executable oomlint on PATH", { skip: process.platform === "win32" }, () => {
  const a = tempDir(), b = tempDir(), c = tempDir();
  file(a, "oomlint", 0o644); // not executable: skipped
  fs.mkdirSync(path.join(b, "oomlint")); // a folder: skipped
  const want = file(c, "oomlint", 0o755);
  file(tempDir(), "oomlint", 0o755);
  assert.equal(findOnPath("oomlint", posix(["", "/nonexistent", a, b, c].join(":"))), want);
});

test("is undefined when PATH has no oomlint", () => {
  assert.equal(findOnPath("oomlint", posix(tempDir())), undefined);
  assert.equal(findOnPath("oomlint", { ...defaultLookup, env: {}, platform: "linux" }), undefined);
});

test("tries PATHEXT's extensions on Windows", () => {
  const seen: string[] = [];
  const lookup: Lookup = {
    env: { Path: "C:\\tools;\"C:\\Program Files\\oomlint\"", PATHEXT: ".COM;.EXE" },
    platform: "win32",
    isExecutable: (f) => {
      seen.push(f);
      return f === "C:\\Program Files\\oomlint\\oomlint.EXE";
    },
  };
  assert.equal(findOnPath("oomlint", lookup), "C:\\Program Files\\oomlint\\oomlint.EXE");
  assert.deepEqual(seen.slice(0, 3), ["C:\\tools\\oomlint", "C:\\tools\\oomlint.COM", "C:\\tools\\oomlint.EXE"]);
});

test("a configured path wins over PATH, with ~ expanded", { skip: process.platform === "win32" }, () => {
  const dir = tempDir();
  file(dir, "oomlint", 0o755);
  assert.equal(resolveServerPath("/opt/oomlint/bin/oomlint", posix(dir)), "/opt/oomlint/bin/oomlint");
  assert.equal(resolveServerPath("~/bin/oomlint", posix(dir)), path.join(os.homedir(), "bin/oomlint"));
  assert.equal(resolveServerPath("  ", posix(dir)), path.join(dir, "oomlint"));
  assert.equal(resolveServerPath(undefined, posix(dir)), path.join(dir, "oomlint"));
});
