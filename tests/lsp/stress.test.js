// Stress test of `oomlint server`'s text synchronisation: 1,000 incremental
// didChange notifications (single-character inserts and deletes, many of
// them multi-byte in UTF-8 or two units in UTF-16), sent to a 5,000-line
// document without waiting for anything. The server must not crash, must end
// with the diagnostics a fresh server gives the final text (and that the
// command line gives it), and must keep its peak memory bounded.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { startServer, rpc } = require("./client");

const LINES = 5000;
const EDITS = 1000;
const PEAK_LIMIT_KB = 200 * 1024;
// no configuration file lives above a folder that does not exist
const URI = "file:///oomlint-stress-nonexistent/train.py";

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** LINES lines of training code with findings, strings and comments in
 *  several scripts; every block's names differ. */
function document(lines) {
  const out = ["import gc", "import torch", "from torch.utils.checkpoint import checkpoint", ""];
  for (let i = 0; out.length < lines; i++) {
    out.push(
      `def train_${i}(model, loader, optimizer, criterion):`,
      `    """Époque ${i}: 训练 😀 naïve"""`,
      "    total = 0",
      "    for x, y in loader:",
      "        with torch.cuda.amp.autocast():",
      "            out = checkpoint(model, x)",
      "        loss = criterion(out, y)  # 损失 ✓",
      "        loss.backward()",
      "        optimizer.step()",
      "        optimizer.zero_grad()",
      i % 2 ? "        total += loss.item()" : '        print("é\u0301 🙂"); total += loss',
      i % 3 ? "" : "        torch.cuda.empty_cache()",
      "    return total",
      "",
    );
  }
  return out.slice(0, lines);
}

// what gets typed: ASCII, Python syntax, two- and three-byte UTF-8, a
// combining mark, and characters outside the BMP (surrogate pairs in UTF-16)
const TYPED = ["a", "x", "1", " ", "(", ")", ":", "=", ".", "#", "\n", "é", "ß", "训", "✓", "\u0301", "😀", "𝔘"];

// a column as the negotiated encoding counts it, from one in UTF-16 units
const UNITS = {
  "utf-16": (text, col) => col,
  "utf-8": (text, col) => Buffer.byteLength(text.slice(0, col)),
};

// lines with findings: an edit there moves or changes a diagnostic, so a
// change the server lost would show in the comparison
const HOT = /total \+= loss|empty_cache|checkpoint\(|autocast/;

/** Apply one random single-character edit to LINES; returns the LSP change
 *  with its columns counted by UNITS. */
function randomEdit(lines, next, units) {
  let line = Math.floor(next() * lines.length);
  if (next() < 0.5) {
    const hot = [];
    for (let i = 0; i < lines.length; i++) if (HOT.test(lines[i])) hot.push(i);
    if (hot.length) line = hot[Math.floor(next() * hot.length)];
  }
  const text = lines[line];
  let col = Math.floor(next() * (text.length + 1));
  // never between the two halves of a surrogate pair
  if (col > 0 && col < text.length && /[\uD800-\uDBFF]/.test(text[col - 1])) col--;
  const at = (c) => ({ line, character: units(text, c) });
  if (next() < 0.55) {
    const ch = TYPED[Math.floor(next() * TYPED.length)];
    if (ch === "\n") lines.splice(line, 1, text.slice(0, col), text.slice(col));
    else lines[line] = text.slice(0, col) + ch + text.slice(col);
    return { range: { start: at(col), end: at(col) }, text: ch };
  }
  if (col === text.length) {
    if (line + 1 === lines.length) return randomEdit(lines, next, units);
    // deleting the line break joins two lines
    lines.splice(line, 2, text + lines[line + 1]);
    return { range: { start: at(col), end: { line: line + 1, character: 0 } }, text: "" };
  }
  const width = /[\uD800-\uDBFF]/.test(text[col]) ? 2 : 1;
  lines[line] = text.slice(0, col) + text.slice(col + width);
  return { range: { start: at(col), end: at(col + width) }, text: "" };
}

// In the AddressSanitizer build, freed memory waits in a quarantine (256 MB
// by default) before reuse, and would be counted as the server's; a small
// one keeps the figure about the server. Other builds ignore the variable.
const SANITIZER_ENV = {
  ASAN_OPTIONS: [process.env.ASAN_OPTIONS, "quarantine_size_mb=8"].filter(Boolean).join(":"),
};

/** The server's peak resident memory in kB (VmHWM), read while it runs. */
function peakKb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)[1]);
}

/** Diagnostics without what differs between two servers: the version in each fix's data. */
function comparable(diagnostics) {
  return diagnostics.map((d) => {
    if (!d.data) return d;
    const { version, ...data } = d.data;
    return { ...d, data };
  });
}

async function stress(t, encoding, seed) {
  const started = Date.now();
  const next = random(seed);
  const lines = document(LINES);
  const capabilities = { general: { positionEncodings: [encoding] } };
  const servers = [];
  try {
    await run(t, encoding, next, lines, capabilities, servers, started);
  } finally {
    // a failed assertion must not leave servers that keep the test runner alive
    for (const s of servers) if (s.proc.exitCode === null && s.proc.signalCode === null) s.kill();
  }
}

async function run(t, encoding, next, lines, capabilities, servers, started) {
  const server = await startServer({ capabilities, env: SANITIZER_ENV });
  servers.push(server);
  assert.equal(server.init.capabilities.positionEncoding, encoding);
  await server.open(URI, lines.join("\n"));
  await server.diagnostics(URI, (p) => p.version === 1, 60000);

  // every notification written at once: nothing waits for the server
  const sent = [];
  for (let version = 2; version <= EDITS + 1; version++)
    sent.push(server.change(URI, version, [randomEdit(lines, next, UNITS[encoding])]));
  await Promise.all(sent);
  const final = lines.join("\n");
  const last = await server.diagnostics(URI, (p) => p.version === EDITS + 1, 60000);
  const peak = peakKb(server.proc.pid);

  // the server still answers, and leaves cleanly
  const hover = await server.conn.sendRequest(rpc.HoverRequest.type, {
    textDocument: { uri: URI },
    position: { line: 0, character: 0 },
  });
  assert.ok(hover === null || hover.contents);

  // a fresh server given the final text at once
  const fresh = await startServer({ capabilities, env: SANITIZER_ENV });
  servers.push(fresh);
  await fresh.open(URI, final, EDITS + 1);
  const expected = await fresh.diagnostics(URI, () => true, 60000);
  assert.equal(last.diagnostics.length, expected.diagnostics.length);
  assert.deepEqual(comparable(last.diagnostics), comparable(expected.diagnostics));

  // "Disable for this line" is built from the main thread's copy of the
  // text, which must have followed the edits too
  const sample = last.diagnostics.filter((d) => d.code !== "OOM000" && d.code !== "OOM001").slice(0, 10);
  for (const d of sample) {
    const ask = (c) =>
      c.conn.sendRequest(rpc.CodeActionRequest.type, {
        textDocument: { uri: URI },
        range: d.range,
        context: { diagnostics: [d], only: ["quickfix"] },
      });
    const title = `Disable ${d.code} for this line`;
    const mine = (await ask(server)).find((a) => a.title === title);
    const theirs = (await ask(fresh)).find((a) => a.title === title);
    assert.deepEqual(mine && mine.edit, theirs && theirs.edit);
  }

  // and the command line on the same text: the same codes on the same lines
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oomlint-stress-"));
  try {
    const file = path.join(dir, "train.py");
    fs.writeFileSync(file, final);
    const cli = spawnSync(process.env.OOMLINT_BIN, ["--isolated", "--output-format", "json", file], {
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    assert.ok(cli.status === 0 || cli.status === 1, cli.stderr);
    const key = (code, row) => `${row}:${code}`;
    const fromCli = JSON.parse(cli.stdout).map((d) => key(d.code, d.location.row - 1)).sort();
    const fromServer = last.diagnostics.map((d) => key(d.code, d.range.start.line)).sort();
    assert.deepEqual(fromServer, fromCli);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  assert.deepEqual(await server.shutdown(), { code: 0, signal: null });
  assert.deepEqual(await fresh.shutdown(), { code: 0, signal: null });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const summary = `${encoding}: ${EDITS} edits of ${LINES} lines, ${last.diagnostics.length} diagnostics, ` +
    `server peak RSS (VmHWM) ${(peak / 1024).toFixed(1)} MB, ${seconds} s`;
  t.diagnostic(summary);
  assert.ok(peak < PEAK_LIMIT_KB, `peak RSS ${peak} kB is over ${PEAK_LIMIT_KB} kB`);
}

test("1,000 rapid incremental edits of a 5,000-line document (UTF-16 positions)", { timeout: 120000 }, (t) =>
  stress(t, "utf-16", 20240607));

test("1,000 rapid incremental edits of a 5,000-line document (UTF-8 positions)", { timeout: 120000 }, (t) =>
  stress(t, "utf-8", 7));
