#!/usr/bin/env node
// Benchmark peer (not a test): Ruff's WebAssembly build with its default rules
// over files named one per line on stdin; prints files, bytes, seconds, MB/s.
"use strict";
const fs = require("node:fs");
const { Workspace, PositionEncoding } = require(process.env.RUFF_WASM || "@astral-sh/ruff-wasm-nodejs");

const files = fs.readFileSync(0, "utf8").split("\n").filter(Boolean);
const t0 = process.hrtime.bigint();
// the settings Ruff uses with no configuration: its default rule selection
const ws = new Workspace(Workspace.defaultSettings(), PositionEncoding.Utf16);
let bytes = 0, diagnostics = 0, failed = 0;
for (const f of files) {
  const text = fs.readFileSync(f, "utf8");
  bytes += Buffer.byteLength(text);
  try {
    diagnostics += ws.check(text).length;
  } catch {
    failed++; // a file Ruff can't take still counts as read
  }
}
const s = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(`ruff-wasm ${Workspace.version()} files=${files.length} bytes=${bytes} diagnostics=${diagnostics} failed=${failed} seconds=${s.toFixed(3)} mbps=${(bytes / 1e6 / s).toFixed(2)}`);
