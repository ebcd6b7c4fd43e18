#!/usr/bin/env node
// Benchmark (not a test): the time from a one-character didChange to its
// publishDiagnostics in `oomlint server`, on a generated 5,000-line training
// file, or on a real file of a project (its imports and the scripts calling
// its functions read through the project index; the edit types a `#` at the
// end of its last line and deletes it). Usage:
// node bench/lsp_latency.js [OOMLINT_BINARY] [--runs N] [--lines N] [--file PATH]
// Build the binary with -DCMAKE_BUILD_TYPE=Release for figures worth quoting.
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  args.splice(i, 2);
  return v;
};
const fileAt = args.indexOf("--file");
const FILE = fileAt < 0 ? null : path.resolve(args.splice(fileAt, 2)[1]);
const RUNS = option("--runs", 50);
const LINES = option("--lines", 5000);
const BIN = args[0] || process.env.OOMLINT_BIN || path.join(__dirname, "..", "build", "oomlint");

/** A training script of LINES lines: many small training and evaluation
 *  functions, some with findings and some clean, as a long real file has. */
function trainingFile(lines) {
  const head = ["import gc", "import torch", "import torch.nn as nn", "from torch.utils.data import DataLoader", ""];
  const unit = (i) => [
    `def train_${i}(model, loader, optimizer, criterion, scaler):`,
    `    """Epoch ${i} of the schedule."""`,
    "    model.train()",
    "    total = 0.0",
    "    for step, (x, y) in enumerate(loader):",
    "        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)",
    '        with torch.autocast("cuda", dtype=torch.bfloat16):',
    "            out = model(x)",
    "            loss = criterion(out, y)",
    "        loss.backward()",
    "        optimizer.step()",
    "        optimizer.zero_grad(set_to_none=True)",
    i % 3 ? "        total += loss.item()" : "        total += loss",
    i % 5 ? "" : "        torch.cuda.empty_cache()",
    "    return total / len(loader)",
    "",
    "",
    `def evaluate_${i}(model, loader):`,
    "    model.eval()",
    "    correct = 0",
    i % 4 ? "    with torch.no_grad():" : "    if True:",
    "        for x, y in loader:",
    "            correct += (model(x.cuda()).argmax(1) == y.cuda()).sum().item()",
    "    return correct",
    "",
    "",
  ];
  const out = [...head];
  for (let i = 0; out.length < lines; i++) out.push(...unit(i));
  return out.slice(0, lines).join("\n") + "\n";
}

/** The CPU time (user + system) process PID has used, in ms; NaN off Linux. */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks, USER_HZ = 100
  } catch {
    return NaN;
  }
}

function frame(message) {
  const body = Buffer.from(JSON.stringify(message));
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
}

function main() {
  const text = FILE ? fs.readFileSync(FILE, "utf8") : trainingFile(LINES);
  const uri = FILE ? `file://${FILE}` : "file:///bench/train_5000.py";
  const proc = spawn(BIN, ["server"], { stdio: ["pipe", "pipe", "inherit"] });
  proc.on("error", (e) => {
    console.error(`cannot run ${BIN}: ${e.message}`);
    process.exit(2);
  });
  let buffered = Buffer.alloc(0);
  let onMessage = () => {};
  proc.stdout.on("data", (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const end = buffered.indexOf("\r\n\r\n");
      if (end < 0) return;
      const n = Number(/Content-Length: (\d+)/i.exec(buffered.subarray(0, end).toString())[1]);
      if (buffered.length < end + 4 + n) return;
      const message = JSON.parse(buffered.subarray(end + 4, end + 4 + n).toString());
      buffered = buffered.subarray(end + 4 + n);
      onMessage(message);
    }
  });
  const send = (m) => proc.stdin.write(frame(m));
  const published = (version) =>
    new Promise((resolve) => {
      onMessage = (m) => {
        if (m.method === "textDocument/publishDiagnostics" && m.params.uri === uri && m.params.version === version)
          resolve(m.params.diagnostics.length);
      };
    });

  (async () => {
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: process.pid, rootUri: null, capabilities: {} } });
    send({ jsonrpc: "2.0", method: "initialized", params: {} });
    let t = process.hrtime.bigint();
    let wait = published(1);
    send({ jsonrpc: "2.0", method: "textDocument/didOpen", params: { textDocument: { uri, languageId: "python", version: 1, text } } });
    const count = await wait;
    const openMs = Number(process.hrtime.bigint() - t) / 1e6;
    // type a character into a docstring and delete it again, alternately: the
    // text and the findings stay the same from run to run
    const lastLines = text.split("\n");
    const line = FILE ? lastLines.length - 1 : 6;
    const column = FILE ? lastLines[line].length : 7;
    const samples = [];
    const cpu0 = cpuMs(proc.pid);
    for (let version = 2; version < RUNS + 2; version++) {
      const insert = version % 2 === 0;
      const change = insert
        ? { range: { start: { line, character: column }, end: { line, character: column } }, text: "x" }
        : { range: { start: { line, character: column }, end: { line, character: column + 1 } }, text: "" };
      if (FILE && insert) change.text = "#";
      wait = published(version);
      t = process.hrtime.bigint();
      send({ jsonrpc: "2.0", method: "textDocument/didChange", params: { textDocument: { uri, version }, contentChanges: [change] } });
      await wait;
      samples.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const cpu = cpuMs(proc.pid) - cpu0;
    samples.sort((a, b) => a - b);
    const pct = (p) => samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))];
    console.log(`oomlint server: ${BIN}`);
    console.log(`document: ${FILE || `${LINES} lines`}, ${Buffer.byteLength(text)} bytes, ${count} diagnostics`);
    console.log(`didOpen -> publishDiagnostics: ${openMs.toFixed(1)} ms`);
    console.log(
      `one-character didChange -> publishDiagnostics over ${RUNS} edits: median ${pct(50).toFixed(1)} ms, ` +
        `p90 ${pct(90).toFixed(1)} ms, min ${samples[0].toFixed(1)} ms, max ${samples.at(-1).toFixed(1)} ms`,
    );
    // wall time grows with the machine's load; the server's own CPU time does not
    if (!Number.isNaN(cpu)) console.log(`server CPU time per edit: ${(cpu / RUNS).toFixed(1)} ms (load average ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} CPUs)`);
    send({ jsonrpc: "2.0", id: 2, method: "shutdown" });
    send({ jsonrpc: "2.0", method: "exit" });
  })();
}

main();
