// End-to-end tests of `oomlint server` with a real LSP client: lifecycle,
// diagnostics, incremental edits, quick fixes, fixAll, hover, pull
// diagnostics, settings, configuration files in the workspace, cancellation,
// and a 5 MB document.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { pathToFileURL } = require("node:url");
const { startServer, applyEdits, editsFor, rpc } = require("./client");

const URI = "file:///work/space/train.py";
const SAMPLE = [
  "import torch",
  "from torch.utils.checkpoint import checkpoint",
  "",
  "model = torch.nn.DataParallel(net)",
  "total = 0",
  "for x, y in loader:",
  "    with torch.cuda.amp.autocast():",
  "        out = checkpoint(model, x)",
  "    loss = criterion(out, y)",
  "    loss.backward()",
  "    optimizer.step()",
  "    optimizer.zero_grad()",
  '    print("训练😀é\u0301"); total += loss',
  "    torch.cuda.empty_cache()",
  "",
].join("\n");
const LINES = SAMPLE.split("\n");
const codes = (p) => p.diagnostics.map((d) => d.code).sort();
const byCode = (p, code) => p.diagnostics.find((d) => d.code === code);

test("lifecycle: UTF-16 by default, UTF-8 when offered; exit status 0 after shutdown, 1 without", async () => {
  const a = await startServer();
  assert.equal(a.init.capabilities.positionEncoding, "utf-16");
  assert.equal(a.init.capabilities.textDocumentSync.change, rpc.TextDocumentSyncKind.Incremental);
  assert.equal(a.init.capabilities.hoverProvider, true);
  assert.equal(a.init.capabilities.diagnosticProvider, undefined); // this client does not pull
  assert.equal(a.init.serverInfo.name, "oomlint");
  assert.deepEqual(await a.shutdown(), { code: 0, signal: null });

  const b = await startServer({ capabilities: { general: { positionEncodings: ["utf-8", "utf-16"] } } });
  assert.equal(b.init.capabilities.positionEncoding, "utf-8");
  await b.conn.sendNotification(rpc.ExitNotification.type);
  assert.deepEqual(await b.exited, { code: 1, signal: null });
  b.conn.dispose();
});

test("requests before initialize, unknown methods and notifications, unopened documents", async () => {
  const c = await startServer({ initialize: false });
  await assert.rejects(c.conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri: URI }, position: { line: 0, character: 0 } }), (e) => e.code === -32002);
  c.init = await c.conn.sendRequest(rpc.InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} });
  await assert.rejects(c.conn.sendRequest("oomlint/noSuchMethod", {}), (e) => e.code === rpc.ErrorCodes.MethodNotFound);
  await c.conn.sendNotification("oomlint/noSuchNotification", { x: 1 });
  await c.conn.sendNotification("$/setTrace", { value: "off" });
  const hover = await c.conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri: URI }, position: { line: 0, character: 0 } });
  assert.equal(hover, null);
  const actions = await c.conn.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri: URI },
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [] },
  });
  assert.deepEqual(actions, []);
  await c.change(URI, 2, [{ text: "x" }]); // a change to a document never opened: logged, ignored
  assert.deepEqual(await c.shutdown(), { code: 0, signal: null });
  assert.match(c.stderr(), /not open/);
});

test("diagnostics: code, source, severity, tags, fix in data, UTF-16 and UTF-8 columns", async () => {
  for (const encoding of ["utf-16", "utf-8"]) {
    const c = await startServer({ capabilities: { general: { positionEncodings: [encoding] } } });
    await c.open(URI, SAMPLE);
    const p = await c.diagnostics(URI);
    assert.equal(p.version, 1);
    assert.deepEqual(codes(p), ["OOM101", "OOM402", "OOM403", "OOM501", "OOM602", "OOM603"]);
    for (const d of p.diagnostics) {
      assert.equal(d.source, "oomlint");
      assert.equal(d.codeDescription, undefined); // no rule has a documentation URL yet
      assert.ok([1, 2, 3].includes(d.severity));
    }
    assert.equal(byCode(p, "OOM101").severity, 1);
    assert.equal(byCode(p, "OOM501").severity, 2);
    assert.deepEqual(byCode(p, "OOM402").tags, [2]);
    assert.deepEqual(byCode(p, "OOM603").tags, [2]);
    assert.equal(byCode(p, "OOM101").tags, undefined);
    const fix = byCode(p, "OOM603").data.fix;
    assert.equal(fix.applicability, "safe");
    assert.equal(fix.edits[0].newText, ", use_reentrant=False");
    // `total` comes after CJK, an emoji (two UTF-16 units, four bytes) and a combining mark
    const line = LINES[12];
    const col16 = line.indexOf("total");
    const want = encoding === "utf-16" ? col16 : Buffer.byteLength(line.slice(0, col16));
    assert.deepEqual(byCode(p, "OOM101").range, {
      start: { line: 12, character: want },
      end: { line: 12, character: want + "total += loss".length },
    });
    await c.shutdown();
  }
});

test("incremental edits give what a fresh document gives", async () => {
  const c = await startServer();
  await c.open(URI, SAMPLE);
  await c.diagnostics(URI, (p) => p.version === 1);
  let text = SAMPLE;
  let version = 1;
  const edit = async (range, newText) => {
    version++;
    text = applyEdits(text, [{ range, newText }]);
    await c.change(URI, version, [{ range, text: newText }]);
  };
  // type `.item()` after `loss` one character at a time, after the emoji
  const at = LINES[12].length;
  for (const [i, ch] of [...".item()"].entries())
    await edit({ start: { line: 12, character: at + i }, end: { line: 12, character: at + i } }, ch);
  // replace the CJK and the emoji with other non-ASCII text, across a surrogate pair
  const s = LINES[12].indexOf("训");
  await edit({ start: { line: 12, character: s }, end: { line: 12, character: s + 4 } }, "🙂x");
  // delete the DataParallel line and add a line at the end, in one notification with two changes
  version++;
  const two = [
    { range: { start: { line: 3, character: 0 }, end: { line: 4, character: 0 } }, text: "" },
    { range: { start: { line: 13, character: 0 }, end: { line: 13, character: 0 } }, text: "    total += loss\n" },
  ];
  for (const ch of two) text = applyEdits(text, [{ range: ch.range, newText: ch.text }]);
  await c.change(URI, version, two);
  const incremental = await c.diagnostics(URI, (p) => p.version === version);
  const fresh = "file:///work/space/fresh.py";
  await c.open(fresh, text);
  const expected = await c.diagnostics(fresh);
  assert.deepEqual(incremental.diagnostics, expected.diagnostics.map((d) => (d.data ? { ...d, data: { ...d.data, version } } : d)));
  assert.ok(codes(incremental).includes("OOM101")); // the new `total += loss`
  assert.ok(!codes(incremental).includes("OOM602")); // the DataParallel line went
  // a whole-document change
  version++;
  await c.change(URI, version, [{ text: "import torch\n" }]);
  assert.deepEqual((await c.diagnostics(URI, (p) => p.version === version)).diagnostics, []);
  await c.shutdown();
});

test("lone CR line endings: diagnostics on their lines, edits by line and character land there", async () => {
  // an old Mac file: every line ends with a lone "\r", which the LSP (and
  // CPython) count as a line end; its twin ends lines with "\n"
  const CR = SAMPLE.replaceAll("\n", "\r");
  const lf = "file:///work/space/lf.py";
  const cr = "file:///work/space/cr.py";
  const c = await startServer();
  await c.open(lf, SAMPLE);
  await c.open(cr, CR);
  const shape = (p) => p.diagnostics.map((d) => [d.code, d.message, d.range]);
  const lfFirst = await c.diagnostics(lf);
  const crFirst = await c.diagnostics(cr);
  assert.ok(!codes(crFirst).includes("OOM000"));
  assert.deepEqual(shape(crFirst), shape(lfFirst));
  assert.equal(byCode(crFirst, "OOM101").range.start.line, 12);
  assert.equal(byCode(crFirst, "OOM501").range.start.line, 13);
  // the same edits, addressed by line and character, to both documents
  let lfText = SAMPLE;
  let crText = CR;
  let version = 1;
  const change = async (changes) => {
    version++;
    const lfChanges = changes.map(([range, t]) => ({ range, text: t }));
    const crChanges = changes.map(([range, t]) => ({ range, text: t.replaceAll("\n", "\r") }));
    for (const ch of lfChanges) lfText = applyEdits(lfText, [{ range: ch.range, newText: ch.text }]);
    for (const ch of crChanges) crText = applyEdits(crText, [{ range: ch.range, newText: ch.text }]);
    await c.change(lf, version, lfChanges);
    await c.change(cr, version, crChanges);
    return [await c.diagnostics(lf, (p) => p.version === version), await c.diagnostics(cr, (p) => p.version === version)];
  };
  const at = LINES[12].length;
  const point = (line, character) => ({ start: { line, character }, end: { line, character } });
  // `.item()` at the end of line 12, one character at a time
  for (const [i, ch] of [...".item()"].entries()) await change([[point(12, at + i), ch]]);
  // delete the DataParallel line, and add a line after line 13
  let [lfNow, crNow] = await change([
    [{ start: { line: 3, character: 0 }, end: { line: 4, character: 0 } }, ""],
    [point(13, 0), "    total += loss\n"],
  ]);
  assert.equal(crText, lfText.replaceAll("\n", "\r"));
  assert.deepEqual(shape(crNow), shape(lfNow));
  assert.ok(codes(crNow).includes("OOM101") && !codes(crNow).includes("OOM602"));
  // a "\n" typed just after a lone "\r" makes one "\r\n": no new line
  version++;
  crText = applyEdits(crText, [{ range: point(5, 0), newText: "\n" }]);
  await c.change(cr, version, [{ range: point(5, 0), text: "\n" }]);
  crNow = await c.diagnostics(cr, (p) => p.version === version);
  assert.deepEqual(shape(crNow), shape(lfNow));
  // and the server's text is the client's: a fresh document of it says the same
  const fresh = "file:///work/space/fresh.py";
  await c.open(fresh, crText);
  assert.deepEqual(shape(await c.diagnostics(fresh)), shape(crNow));
  await c.shutdown();
});

test("quick fix and 'Disable for this line' remove their diagnostic", async () => {
  const c = await startServer({ capabilities: { workspace: { workspaceEdit: { documentChanges: true } } } });
  await c.open(URI, SAMPLE);
  const p = await c.diagnostics(URI);
  const ask = (d) =>
    c.conn.sendRequest(rpc.CodeActionRequest.type, {
      textDocument: { uri: URI },
      range: d.range,
      context: { diagnostics: [d], only: ["quickfix"] },
    });
  const reentrant = byCode(p, "OOM603");
  const actions = await ask(reentrant);
  const fix = actions.find((a) => a.title.startsWith("Fix OOM603"));
  assert.ok(fix, JSON.stringify(actions));
  assert.equal(fix.kind, "quickfix");
  assert.equal(fix.isPreferred, true);
  assert.equal(fix.edit.documentChanges[0].textDocument.version, 1);
  let text = applyEdits(SAMPLE, editsFor(fix.edit, URI));
  assert.match(text, /checkpoint\(model, x, use_reentrant=False\)/);
  await c.change(URI, 2, [{ text }]);
  const p2 = await c.diagnostics(URI, (q) => q.version === 2);
  assert.ok(!codes(p2).includes("OOM603"));

  const off = (await ask(byCode(p2, "OOM501"))).find((a) => a.title === "Disable OOM501 for this line");
  assert.ok(off);
  text = applyEdits(text, editsFor(off.edit, URI));
  assert.match(text, /torch\.cuda\.empty_cache\(\)  # noqa: OOM501\n/);
  await c.change(URI, 3, [{ text }]);
  const p3 = await c.diagnostics(URI, (q) => q.version === 3);
  assert.ok(!codes(p3).includes("OOM501"));
  assert.ok(!codes(p3).includes("OOM001"));

  // a second code goes into the same noqa comment
  const lineNo = text.split("\n").findIndex((l) => l.includes("# noqa: OOM501"));
  const fake = { ...byCode(p3, "OOM101"), range: { start: { line: lineNo, character: 4 }, end: { line: lineNo, character: 8 } } };
  const more = (await ask(fake)).find((a) => a.title === "Disable OOM101 for this line");
  assert.match(applyEdits(text, editsFor(more.edit, URI)), /# noqa: OOM501, OOM101\n/);
  // stale fix data (an older version) is not offered
  const stale = await ask(reentrant);
  assert.ok(!stale.some((a) => a.title.startsWith("Fix ")));
  await c.shutdown();
});

test("source.fixAll.oomlint applies every safe fix", async () => {
  const c = await startServer();
  await c.open(URI, SAMPLE);
  await c.change(URI, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "# fix me\n" }]);
  // asked at once: the answer waits for version 2's lint
  const actions = await c.conn.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri: URI },
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    context: { diagnostics: [], only: ["source.fixAll.oomlint"] },
  });
  assert.equal(actions.length, 1);
  assert.equal(actions[0].kind, "source.fixAll.oomlint");
  const text = applyEdits("# fix me\n" + SAMPLE, editsFor(actions[0].edit, URI));
  assert.match(text, /use_reentrant=False/);
  assert.match(text, /torch\.amp\.autocast\("cuda"\)/);
  await c.change(URI, 3, [{ text }]);
  const after = await c.diagnostics(URI, (p) => p.version === 3);
  assert.ok(!after.diagnostics.some((d) => d.data && d.data.fix.applicability === "safe" && d.data.fix.edits.length));
  // the light bulb (no `only`) lists quick fixes and the fix-all action together
  const all = await c.conn.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri: URI },
    range: after.diagnostics[0].range,
    context: { diagnostics: after.diagnostics },
  });
  assert.ok(all.some((a) => a.kind === "quickfix"));
  await c.shutdown();
});

test("hover shows the rule's documentation on a diagnostic and on a noqa code", async () => {
  const c = await startServer();
  const text = SAMPLE + "x = torch.load(path)  # noqa: OOM303, oom501\n";
  await c.open(URI, text);
  const p = await c.diagnostics(URI);
  const d = byCode(p, "OOM602");
  const h = await c.conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri: URI }, position: d.range.start });
  assert.equal(h.contents.kind, "markdown");
  assert.match(h.contents.value, /\*\*OOM602\*\*/);
  assert.match(h.contents.value, /## What it does/);
  assert.deepEqual(h.range, d.range);
  const row = text.split("\n").length - 2;
  const col = text.split("\n")[row].indexOf("oom501") + 2;
  const n = await c.conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri: URI }, position: { line: row, character: col } });
  assert.match(n.contents.value, /\*\*OOM501\*\*/);
  const none = await c.conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri: URI }, position: { line: 0, character: 0 } });
  assert.equal(none, null);
  await c.shutdown();
});

test("pull diagnostics when the client advertises them; didClose clears pushed ones", async () => {
  const c = await startServer({ capabilities: { textDocument: { diagnostic: { dynamicRegistration: false } } } });
  // a file's diagnostics read the modules it imports (the project index)
  assert.equal(c.init.capabilities.diagnosticProvider.interFileDependencies, true);
  await c.open(URI, SAMPLE);
  const report = await c.conn.sendRequest(rpc.DocumentDiagnosticRequest.type, { textDocument: { uri: URI } });
  assert.equal(report.kind, "full");
  assert.deepEqual(report.items.map((d) => d.code).sort(), ["OOM101", "OOM402", "OOM403", "OOM501", "OOM602", "OOM603"]);
  const again = await c.conn.sendRequest(rpc.DocumentDiagnosticRequest.type, {
    textDocument: { uri: URI },
    previousResultId: report.resultId,
  });
  assert.equal(again.kind, "unchanged");
  assert.equal(c.published.length, 0); // a pulling client gets no pushes
  await c.shutdown();

  const push = await startServer();
  await push.open(URI, SAMPLE);
  await push.diagnostics(URI);
  await push.conn.sendNotification(rpc.DidCloseTextDocumentNotification.type, { textDocument: { uri: URI } });
  await push.waitFor(() => push.published.length >= 2);
  assert.deepEqual(push.published.at(-1).diagnostics, []);
  await push.shutdown();
});

test("settings: initializationOptions and didChangeConfiguration rebuild the rules", async () => {
  const c = await startServer({ initializationOptions: { select: ["OOM5", "OOM6"] } });
  await c.open(URI, SAMPLE);
  assert.deepEqual(codes(await c.diagnostics(URI)), ["OOM501", "OOM602", "OOM603"]);
  await c.conn.sendNotification(rpc.DidChangeConfigurationNotification.type, {
    settings: { oomlint: { select: [], ignore: ["OOM501", "OOM4"] } },
  });
  await c.waitFor(() => c.published.length >= 2);
  assert.deepEqual(codes(c.published[1]), ["OOM101", "OOM602", "OOM603"]);
  await c.conn.sendNotification(rpc.DidChangeConfigurationNotification.type, { settings: { oomlint: { select: "OOM9999" } } });
  await c.waitFor(() => c.messages.length >= 1);
  assert.match(c.messages[0].message, /invalid rule selector `OOM9999`/);
  await c.conn.sendNotification(rpc.DidChangeConfigurationNotification.type, {
    settings: { oomlint: { rulesDir: "/nonexistent/rules" } },
  });
  await c.waitFor(() => c.messages.length >= 2);
  assert.equal(c.messages[1].type, rpc.MessageType.Error);
  await c.shutdown();
});

test("settings: gpuMemory turns on the memory-budget rule", async () => {
  const MODEL = [
    "import torch",
    "from torch import nn",
    "model = nn.Linear(4096, 4096)",
    "optimizer = torch.optim.AdamW(model.parameters())",
    "",
  ].join("\n");
  const c = await startServer();
  await c.open(URI, MODEL);
  assert.ok(!codes(await c.diagnostics(URI)).includes("OOM601"));
  // 16.8M parameters with AdamW need about 256 MiB: over a 64 MiB budget
  await c.conn.sendNotification(rpc.DidChangeConfigurationNotification.type, {
    settings: { oomlint: { gpuMemory: "64MiB" } },
  });
  await c.waitFor(() => c.published.length >= 2);
  assert.ok(codes(c.published[1]).includes("OOM601"));
  await c.conn.sendNotification(rpc.DidChangeConfigurationNotification.type, { settings: { oomlint: { gpuMemory: "lots" } } });
  await c.waitFor(() => c.messages.length >= 1);
  assert.match(c.messages[0].message, /gpuMemory/);
  await c.shutdown();
});

test("a 5 MB document does not stall the server; a waiting request can be cancelled", async () => {
  const c = await startServer({ capabilities: { textDocument: { diagnostic: {} } } });
  const unit = SAMPLE.replace("model =", "model_0 =");
  const big = unit.repeat(Math.ceil((5 << 20) / unit.length));
  assert.ok(big.length >= 5 << 20);
  const BIG = "file:///work/space/big.py";
  await c.open(BIG, big);
  // the lint of 5 MB runs on the lint thread; the main thread keeps answering
  // while it does: the answers come before the pull of its diagnostics does
  const source = new rpc.CancellationTokenSource();
  const pending = c.conn.sendRequest(rpc.DocumentDiagnosticRequest.type, { textDocument: { uri: BIG } }, source.token);
  let pulled = false;
  pending.then(() => (pulled = true), () => (pulled = true));
  await c.open(URI, "x = 1\n");
  const h = await c.conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri: BIG }, position: { line: 3, character: 10 } });
  assert.ok(h === null || h.contents);
  const actions = await c.conn.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri: BIG },
    range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } },
    context: { diagnostics: [], only: ["quickfix"] },
  });
  assert.deepEqual(actions, []);
  assert.equal(pulled, false, "the hover and the code actions waited for the 5 MB lint");
  source.cancel();
  await assert.rejects(pending, (e) => e.code === rpc.LSPErrorCodes.RequestCancelled);
  // and shutdown/exit do not wait for the 5 MB lint to finish
  const t = Date.now();
  assert.deepEqual(await c.shutdown(), { code: 0, signal: null });
  assert.ok(Date.now() - t < 10000);
});

// ---- configuration files in the workspace ----

const ALL_CODES = ["OOM101", "OOM402", "OOM403", "OOM501", "OOM602", "OOM603"];

/** Run FN(project, start) in a scratch folder holding FILES ({relative path:
 *  text}); `start` starts servers. Afterwards the folder is removed and any
 *  server a failed assertion left running is killed, so the runner can end. */
async function withProject(files, fn) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oomlint-lsp-"));
  const write = (rel, text) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  const p = { dir, write, uri: (rel) => pathToFileURL(path.join(dir, rel)).href };
  const servers = [];
  const start = async (options) => {
    const s = await startServer(options);
    servers.push(s);
    return s;
  };
  try {
    await fn(p, start);
  } finally {
    for (const s of servers) if (s.proc.exitCode === null && s.proc.signalCode === null) s.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("configuration: the nearest file selects and ignores, no higher than the workspace folder", async () => {
  await withProject({
    "pyproject.toml": '[tool.oomlint]\nselect = ["OOM101"]\n', // above both workspace folders
    "app/pyproject.toml": '[project]\nname = "app"\n\n[tool.oomlint]\nselect = ["OOM5", "OOM6"]\n',
    "app/sub/oomlint.toml": 'ignore = ["OOM6"]\n',
    "app/other/pyproject.toml": '[tool.ruff]\nline-length = 100\n', // no [tool.oomlint]: passed over
    "lib/.keep": "",
  }, async (p, start) => {
    const c = await start({
      workspaceFolders: [
        { uri: p.uri("app"), name: "app" },
        { uri: p.uri("lib"), name: "lib" },
      ],
    });
    const cases = [
      ["app/train.py", ["OOM501", "OOM602", "OOM603"]],
      ["app/sub/deep/train.py", ["OOM101", "OOM402", "OOM403", "OOM501"]],
      ["app/other/train.py", ["OOM501", "OOM602", "OOM603"]],
      ["lib/train.py", ALL_CODES], // the file above the folder is not the project's
      ["loose/train.py", ["OOM101"]], // outside every folder: searched up as the CLI does
    ];
    for (const [rel] of cases) await c.open(p.uri(rel), SAMPLE);
    for (const [rel, want] of cases) assert.deepEqual(codes(await c.diagnostics(p.uri(rel))), want, rel);
    assert.deepEqual(c.messages, []);
    await c.shutdown();
  });
});

test("configuration: per-file-ignores and exclude match the path from the file's folder", async () => {
  // the project sits in a folder named `build`: excluding `build` means the
  // project's own build folder, not one above it
  await withProject({
    "build/proj/pyproject.toml": [
      "[tool.oomlint]",
      'exclude = ["build", "generated/"]',
      "",
      "[tool.oomlint.per-file-ignores]",
      '"tests/*" = ["OOM5"]',
      '"scripts/*.py" = ["ALL"]',
      "",
    ].join("\n"),
  }, async (p, start) => {
    const c = await start({ rootUri: p.uri("build/proj") });
    const cases = [
      ["build/proj/train.py", ALL_CODES],
      ["build/proj/tests/test_train.py", ["OOM101", "OOM402", "OOM403", "OOM602", "OOM603"]],
      ["build/proj/scripts/run.py", []],
      ["build/proj/generated/model.py", []],
      ["build/proj/build/lib/train.py", []],
    ];
    for (const [rel] of cases) await c.open(p.uri(rel), SAMPLE);
    for (const [rel, want] of cases) assert.deepEqual(codes(await c.diagnostics(p.uri(rel))), want, rel);
    await c.shutdown();
  });
});

test("configuration: the editor's settings and the server's flags beat the file", async () => {
  const files = { "pyproject.toml": '[tool.oomlint]\nselect = ["OOM5", "OOM6"]\nignore = ["OOM603"]\n' };
  await withProject(files, async (p, start) => {
    const uri = p.uri("train.py");
    const a = await start({ rootUri: p.uri(""), initializationOptions: { select: ["OOM1", "OOM4"] } });
    await a.open(uri, SAMPLE);
    // the editor's select replaces the file's selection and its ignores
    assert.deepEqual(codes(await a.diagnostics(uri)), ["OOM101", "OOM402", "OOM403"]);
    await a.conn.sendNotification(rpc.DidChangeConfigurationNotification.type, {
      settings: { oomlint: { ignore: ["OOM602"] } },
    });
    await a.waitFor(() => a.published.length >= 2);
    assert.deepEqual(codes(a.published[1]), ["OOM501"]); // the file's selection, both ignores
    await a.conn.sendNotification(rpc.DidChangeConfigurationNotification.type, { settings: { oomlint: {} } });
    await a.waitFor(() => a.published.length >= 3);
    assert.deepEqual(codes(a.published[2]), ["OOM501", "OOM602"]); // the file alone
    await a.shutdown();

    // `oomlint --extend-select OOM1 server`: flags above the file, the editor above both
    const b = await start({
      args: ["--extend-select", "OOM101"],
      rootUri: p.uri(""),
      initializationOptions: { ignore: "OOM501" },
    });
    await b.open(uri, SAMPLE);
    assert.deepEqual(codes(await b.diagnostics(uri)), ["OOM101", "OOM602"]);
    await b.shutdown();
  });
});

test("configuration: an edited file is read again, on didChangeWatchedFiles or on the next lint", async () => {
  await withProject({ "oomlint.toml": 'select = ["OOM5"]\n' }, async (p, start) => {
    const uri = p.uri("src/train.py");
    const c = await start({
      rootUri: p.uri(""),
      capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
    });
    // the server asks for notices of its configuration files
    await c.waitFor(() => c.registrations.length >= 1);
    const reg = c.registrations[0];
    assert.equal(reg.method, "workspace/didChangeWatchedFiles");
    const globs = reg.registerOptions.watchers.map((w) => w.globPattern).sort();
    assert.deepEqual(globs, ["**/*.py", "**/.oomlint.toml", "**/oomlint.toml", "**/pyproject.toml"]);

    await c.open(uri, SAMPLE);
    assert.deepEqual(codes(await c.diagnostics(uri)), ["OOM501"]);
    p.write("oomlint.toml", 'select = ["OOM6", "OOM101"]\n');
    await c.filesChanged([p.uri("oomlint.toml")]);
    await c.waitFor(() => c.published.length >= 2);
    assert.deepEqual(codes(c.published.at(-1)), ["OOM101", "OOM602", "OOM603"]);

    // a nearer file created, with no notice: the next lint finds it
    p.write("src/pyproject.toml", '[tool.oomlint]\nselect = ["OOM402"]\n');
    await c.change(uri, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "\n" }]);
    assert.deepEqual(codes(await c.diagnostics(uri, (q) => q.version === 2)), ["OOM402"]);
    // and an edit of it (another size) with no notice either
    p.write("src/pyproject.toml", '[tool.oomlint]\nselect = ["OOM403", "OOM602"]\n');
    await c.change(uri, 3, [{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: "" }]);
    assert.deepEqual(codes(await c.diagnostics(uri, (q) => q.version === 3)), ["OOM403", "OOM602"]);
    // deleted, with a notice: back to the outer file
    fs.rmSync(path.join(p.dir, "src/pyproject.toml"));
    const before = c.published.length;
    await c.filesChanged([p.uri("src/pyproject.toml")], rpc.FileChangeType.Deleted);
    await c.waitFor(() => c.published.length > before);
    assert.deepEqual(codes(c.published.at(-1)), ["OOM101", "OOM602", "OOM603"]);
    assert.deepEqual(c.messages, []);
    await c.shutdown();
  });
});

test("project: an importer is linted again when a module it imports changes, in the editor or on disk", async () => {
  const LOSSES = "import torch.nn.functional as F\n\n\ndef aux(pred, target):\n    return F.mse_loss(pred, target)\n";
  const SCALAR = LOSSES.replace("target)\n", "target).item()\n");
  const TRAIN = [
    "import torch",
    "import torch.nn as nn",
    "from losses import aux",
    "",
    "model = nn.Linear(4, 4)",
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)",
    "running = 0.0",
    "for x, y in loader:",
    "    opt.zero_grad()",
    "    out = model(x)",
    "    loss = (out - y).pow(2).mean()",
    "    loss.backward()",
    "    opt.step()",
    "    running += aux(out, y)",
    "",
  ].join("\n");
  await withProject({ "pyproject.toml": "[project]\nname = 'p'\n", "losses.py": LOSSES, "train.py": TRAIN }, async (p, start) => {
    const train = p.uri("train.py"), losses = p.uri("losses.py");
    const c = await start({ rootUri: p.uri("") });
    // the publication for train.py after the first AFTER ones that PREDICATE accepts
    const next = async (after, predicate) => {
      await c.waitFor(() => c.published.filter((q) => q.uri === train).slice(after).some(predicate));
      return c.published.filter((q) => q.uri === train).length;
    };
    const flagged = (q) => codes(q).includes("OOM101");
    await c.open(train, TRAIN);
    assert.deepEqual(codes(await c.diagnostics(train)), ["OOM101"]); // only the index knows aux keeps a graph
    // losses.py edited in the editor, not saved: aux returns a float now
    await c.open(losses, LOSSES);
    let n = c.published.filter((q) => q.uri === train).length;
    await c.change(losses, 2, [{ text: SCALAR }]);
    n = await next(n, (q) => !flagged(q));
    // closed without saving: the file on disk is what the importer sees again
    await c.conn.sendNotification(rpc.DidCloseTextDocumentNotification.type, { textDocument: { uri: losses } });
    n = await next(n, flagged);
    // saved by another program, with a notice
    p.write("losses.py", SCALAR);
    await c.filesChanged([losses]);
    n = await next(n, (q) => !flagged(q));
    // written back as it was, with a notice
    p.write("losses.py", LOSSES);
    await c.filesChanged([losses]);
    n = await next(n, flagged);
    // an unrelated module's change leaves train.py alone
    const before = c.published.filter((q) => q.uri === train).length;
    p.write("other.py", "x = 1\n");
    await c.filesChanged([p.uri("other.py")]);
    const probe = "file:///nowhere/probe.py";
    await c.open(probe, "import torch\n");
    await c.diagnostics(probe); // the notice was handled before this open
    assert.equal(c.published.filter((q) => q.uri === train).length, before);
    await c.shutdown();
  });
});

test("project: a file is linted again when a script calling its functions changes (callers under no_grad)", async () => {
  const MODEL = [
    "import torch",
    "import torch.nn as nn",
    "",
    "",
    "class Net(nn.Module):",
    "    def __init__(self):",
    "        super().__init__()",
    "        self.fc = nn.Linear(4, 4)",
    "",
    "    def forward(self, x):",
    "        return self.fc(x)",
    "",
    "    def inference(self, loader):",
    "        self.eval()",
    "        outs = []",
    "        for x in loader:",
    "            outs.append(self(x))",
    "        return torch.cat(outs)",
    "",
  ].join("\n");
  const RUN = "import torch\nfrom model import Net\n\nnet = Net()\nwith torch.no_grad():\n    preds = net.inference(loader)\n";
  const WITH_GRAD = RUN + "more = net.inference(loader)\n";
  await withProject({ "pyproject.toml": "[project]\nname = 'p'\n", "model.py": MODEL, "run.py": RUN }, async (p, start) => {
    const model = p.uri("model.py"), run = p.uri("run.py");
    const c = await start({ rootUri: p.uri("") });
    const next = async (after, predicate) => {
      await c.waitFor(() => c.published.filter((q) => q.uri === model).slice(after).some(predicate));
      return c.published.filter((q) => q.uri === model).length;
    };
    const flagged = (q) => codes(q).includes("OOM102");
    await c.open(model, MODEL);
    // its only caller, run.py, runs it under no_grad
    assert.equal(flagged(await c.diagnostics(model)), false);
    // run.py edited in the editor, not saved: a call with gradients on
    await c.open(run, RUN);
    let n = c.published.filter((q) => q.uri === model).length;
    await c.change(run, 2, [{ text: WITH_GRAD }]);
    n = await next(n, flagged);
    // closed without saving: the file on disk is what counts again
    await c.conn.sendNotification(rpc.DidCloseTextDocumentNotification.type, { textDocument: { uri: run } });
    n = await next(n, (q) => !flagged(q));
    // saved by another program, with a notice
    p.write("run.py", WITH_GRAD);
    await c.filesChanged([run]);
    n = await next(n, flagged);
    await c.shutdown();
  });
});

test("workspace folders: added and removed folders bound the search for configuration files", async () => {
  // the project's file ignores OOM101; app/ has none of its own
  await withProject({ "oomlint.toml": 'ignore = ["OOM101"]\n', "app/.keep": "", "lib/.keep": "" }, async (p, start) => {
    const folders = (...rels) => rels.map((rel) => ({ uri: p.uri(rel), name: rel }));
    const changeFolders = (added, removed) =>
      c.conn.sendNotification("workspace/didChangeWorkspaceFolders", { event: { added, removed } });
    const c = await start({ workspaceFolders: folders("lib") });
    assert.deepEqual(c.init.capabilities.workspace.workspaceFolders, { supported: true, changeNotifications: true });
    const app = p.uri("app/train.py");
    const lib = p.uri("lib/train.py");
    await c.open(app, SAMPLE);
    await c.open(lib, SAMPLE);
    const withoutOOM101 = ALL_CODES.filter((x) => x !== "OOM101");
    // app/ is outside every folder: searched up to the project's file
    assert.deepEqual(codes(await c.diagnostics(app)), withoutOOM101);
    assert.deepEqual(codes(await c.diagnostics(lib)), ALL_CODES); // lib/ stops the search
    const latest = async (uri, n) => {
      await c.waitFor(() => c.published.filter((q) => q.uri === uri).length >= n);
      return codes(c.published.filter((q) => q.uri === uri).at(-1));
    };
    // app/ becomes a folder: its search stops there, before the project's file
    await changeFolders(folders("app"), []);
    assert.deepEqual(await latest(app, 2), ALL_CODES);
    // the project becomes a folder too: the deepest folder still bounds app/
    await changeFolders(folders(""), []);
    // removed: the project's folder bounds app/ now, and finds its file
    await changeFolders([], folders("app"));
    assert.deepEqual(await latest(app, 3), withoutOOM101);
    // lib/ removed: bounded by the project's folder, it finds the file as well
    await changeFolders([], folders("lib"));
    assert.deepEqual(await latest(lib, 2), withoutOOM101);
    // the project removed: no folder holds them, their search goes up
    // unbounded and finds the same file
    await changeFolders([], folders(""));
    assert.deepEqual(await latest(app, 4), withoutOOM101);
    assert.deepEqual(await latest(lib, 3), withoutOOM101);
    // lib/ and app/ added back in one event, with a folder never added removed
    await changeFolders(folders("lib", "app"), folders("elsewhere"));
    assert.deepEqual(await latest(app, 5), ALL_CODES);
    assert.deepEqual(await latest(lib, 4), ALL_CODES);
    // the events that did not move a document's bound did not lint it again
    assert.equal(c.published.filter((q) => q.uri === app).length, 5);
    assert.equal(c.published.filter((q) => q.uri === lib).length, 4);
    assert.deepEqual(c.messages, []);
    await c.shutdown();
  });
});

test("workspace folders: a pulling client is asked to pull again; rulesDir follows the first folder", async () => {
  const rule = [
    "; code: OOM950",
    "; name: workspace-rule",
    "; severity: warning",
    "; message: a rule of the folder `{name}`",
    "; doc:",
    ";   ## What it does",
    ";   A rule of the tests.",
    '((identifier) @name @report (#eq? @name "criterion"))',
    "",
  ].join("\n");
  await withProject({ "oomlint.toml": 'ignore = ["OOM101"]\n', "app/.keep": "", "b/rules/OOM950-workspace-rule.scm": rule }, async (p, start) => {
    const c = await start({
      workspaceFolders: [{ uri: p.uri("a"), name: "a" }],
      initializationOptions: { rulesDir: "rules" },
      capabilities: { textDocument: { diagnostic: {} }, workspace: { diagnostics: { refreshSupport: true } } },
    });
    // "a/rules" does not exist: the settings are not applied, the defaults lint
    await c.waitFor(() => c.messages.length >= 1);
    assert.match(c.messages[0].message, /rules/);
    const app = p.uri("app/train.py");
    const pull = async () =>
      (await c.conn.sendRequest(rpc.DocumentDiagnosticRequest.type, { textDocument: { uri: app } })).items.map((d) => d.code).sort();
    await c.open(app, SAMPLE);
    assert.deepEqual(await pull(), ALL_CODES.filter((x) => x !== "OOM101"));
    let before = c.refreshes();
    await c.conn.sendNotification("workspace/didChangeWorkspaceFolders", {
      event: { added: [{ uri: p.uri("app"), name: "app" }], removed: [] },
    });
    await c.waitFor(() => c.refreshes() > before);
    assert.deepEqual(await pull(), ALL_CODES);
    // b/ is now the only folder: the relative rulesDir means b/rules, and
    // app/ is searched up to the project's file again
    before = c.refreshes();
    await c.conn.sendNotification("workspace/didChangeWorkspaceFolders", {
      event: { added: [{ uri: p.uri("b"), name: "b" }], removed: [{ uri: p.uri("a"), name: "a" }, { uri: p.uri("app"), name: "app" }] },
    });
    await c.waitFor(() => c.refreshes() > before);
    assert.deepEqual(await pull(), [...ALL_CODES.filter((x) => x !== "OOM101"), "OOM950"].sort());
    assert.equal(c.published.length, 0);
    await c.shutdown();
  });
});

test("configuration: a malformed file is shown once and the defaults lint", async () => {
  await withProject({ "app/pyproject.toml": '[tool.oomlint]\nselect = ["OOM5"\n' }, async (p, start) => {
    const c = await start({ rootUri: p.uri("app") });
    await c.open(p.uri("app/a.py"), SAMPLE);
    assert.deepEqual(codes(await c.diagnostics(p.uri("app/a.py"))), ALL_CODES);
    await c.waitFor(() => c.messages.length >= 1);
    assert.equal(c.messages[0].type, rpc.MessageType.Error);
    assert.match(c.messages[0].message, /pyproject\.toml:\d+:\d+: TOML syntax error/);
    // a second document under it, and a relint: no second message
    await c.open(p.uri("app/b.py"), SAMPLE);
    assert.deepEqual(codes(await c.diagnostics(p.uri("app/b.py"))), ALL_CODES);
    await c.change(p.uri("app/a.py"), 2, [{ text: SAMPLE + "\n" }]);
    await c.diagnostics(p.uri("app/a.py"), (q) => q.version === 2);
    assert.equal(c.messages.length, 1);

    // fixed: it applies
    p.write("app/pyproject.toml", '[tool.oomlint]\nselect = ["OOM5"]\n');
    await c.filesChanged([p.uri("app/pyproject.toml")]);
    await c.waitFor(() => c.published.filter((q) => q.uri === p.uri("app/b.py")).length >= 2);
    assert.deepEqual(codes(c.published.filter((q) => q.uri === p.uri("app/b.py")).at(-1)), ["OOM501"]);
    // broken another way (an unknown key): one more message, the defaults again
    p.write("app/pyproject.toml", '[tool.oomlint]\nselect = ["OOM5"]\ngpu-mem = "24GiB"\n');
    await c.filesChanged([p.uri("app/pyproject.toml")]);
    await c.waitFor(() => c.messages.length >= 2);
    assert.match(c.messages[1].message, /unknown key `gpu-mem`/);
    await c.waitFor(() => codes(c.published.filter((q) => q.uri === p.uri("app/b.py")).at(-1)).length === 6);
    // a rules-dir that does not exist: the rules cannot be built
    p.write("app/pyproject.toml", '[tool.oomlint]\nrules-dir = "no/such/folder"\n');
    await c.filesChanged([p.uri("app/pyproject.toml")]);
    await c.waitFor(() => c.messages.length >= 3);
    assert.match(c.messages[2].message, /the rules could not be built/);
    assert.deepEqual(await c.shutdown(), { code: 0, signal: null });
    assert.equal(c.messages.length, 3);
  });
});

/** A rule file, CODE-watched.scm, that reports each identifier spelled NAME. */
function ruleFile(code, name) {
  return [
    `; code: ${code}`,
    "; name: watched",
    "; severity: warning",
    "; message: `{name}` is used",
    "; doc:",
    ";   ## What it does",
    ";   A rule of the tests.",
    `((identifier) @name @report (#eq? @name "${name}"))`,
    "",
  ].join("\n");
}

const messages = (p) => p.diagnostics.map((d) => `${d.code} ${d.message}`).sort();

test("rules-dir: a changed rule file rebuilds the rules, on didChangeWatchedFiles", async () => {
  await withProject({
    "pyproject.toml": '[tool.oomlint]\nrules-dir = "lint/rules"\nselect = ["OOM95"]\n',
    "lint/rules/OOM950-watched.scm": ruleFile("OOM950", "criterion"),
  }, async (p, start) => {
    const c = await start({
      rootUri: p.uri(""),
      capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true } } },
    });
    const uri = p.uri("train.py");
    const rule = (rel) => path.join(p.dir, "lint/rules", rel);
    await c.open(uri, SAMPLE);
    assert.deepEqual(messages(await c.diagnostics(uri)), ["OOM950 `criterion` is used"]);
    // the folder the configuration names is watched, once it is known
    await c.waitFor(() => c.registrations.some((r) => r.id.startsWith("oomlint-rules-folder")));
    const watcher = c.registrations.find((r) => r.id.startsWith("oomlint-rules-folder"));
    assert.equal(watcher.method, "workspace/didChangeWatchedFiles");
    assert.deepEqual(watcher.registerOptions.watchers, [{ globPattern: { baseUri: p.uri("lint/rules"), pattern: "*.scm" } }]);
    const latest = async (n) => {
      await c.waitFor(() => c.published.length >= n);
      return messages(c.published.at(-1));
    };

    // rewritten in place, to the same size: only the notice can tell
    fs.writeFileSync(rule("OOM950-watched.scm"), ruleFile("OOM950", "optimizer"));
    await c.filesChanged([pathToFileURL(rule("OOM950-watched.scm")).href]);
    assert.deepEqual(await latest(2), ["OOM950 `optimizer` is used", "OOM950 `optimizer` is used"]);
    // a second rule
    fs.writeFileSync(rule("OOM951-watched.scm"), ruleFile("OOM951", "loader"));
    await c.filesChanged([pathToFileURL(rule("OOM951-watched.scm")).href], rpc.FileChangeType.Created);
    assert.deepEqual(await latest(3), ["OOM950 `optimizer` is used", "OOM950 `optimizer` is used", "OOM951 `loader` is used"]);
    // a rule that no longer compiles: shown as a broken configuration is, and
    // the defaults lint meanwhile
    fs.writeFileSync(rule("OOM951-watched.scm"), ruleFile("OOM951", "loader").replace("(identifier)", "(no_such_node)"));
    await c.filesChanged([pathToFileURL(rule("OOM951-watched.scm")).href]);
    assert.deepEqual((await latest(4)).map((m) => m.split(" ")[0]), ALL_CODES);
    await c.waitFor(() => c.messages.length >= 1);
    assert.equal(c.messages[0].type, rpc.MessageType.Error);
    assert.match(c.messages[0].message, /pyproject\.toml: the rules could not be built: .*OOM951-watched\.scm/);
    assert.match(c.messages[0].message, /linted with the default settings until it is fixed/);
    // deleted: the first rule alone again
    fs.rmSync(rule("OOM951-watched.scm"));
    await c.filesChanged([pathToFileURL(rule("OOM951-watched.scm")).href], rpc.FileChangeType.Deleted);
    assert.deepEqual(await latest(5), ["OOM950 `optimizer` is used", "OOM950 `optimizer` is used"]);
    // a notice of a rule file that did not change rebuilds nothing
    await c.filesChanged([pathToFileURL(rule("OOM950-watched.scm")).href]);
    assert.deepEqual(await latest(6), ["OOM950 `optimizer` is used", "OOM950 `optimizer` is used"]);
    assert.equal(c.messages.length, 1);
    await c.shutdown();
  });
});

test("rules-dir: a changed rule file is noticed on the next lint without a notice", async () => {
  await withProject({
    "app/pyproject.toml": '[tool.oomlint]\nrules-dir = "rules"\nselect = ["OOM95"]\n',
    "app/rules/OOM950-watched.scm": ruleFile("OOM950", "criterion"),
    "settings-rules/OOM960-watched.scm": ruleFile("OOM960", "criterion"),
  }, async (p, start) => {
    const c = await start({ rootUri: p.uri("") });
    const a = p.uri("app/a.py");
    const b = p.uri("app/b.py");
    const rule = (rel) => path.join(p.dir, "app/rules", rel);
    await c.open(a, SAMPLE);
    await c.open(b, SAMPLE);
    assert.deepEqual(codes(await c.diagnostics(a)), ["OOM950"]);
    assert.deepEqual(codes(await c.diagnostics(b)), ["OOM950"]);
    const edit = (uri, version) =>
      c.change(uri, version, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: "\n" }]);

    // a rule file added changes the folder: the next lint sees it, and the
    // other document under the same configuration is linted again too
    fs.writeFileSync(rule("OOM951-watched.scm"), ruleFile("OOM951", "loader"));
    await edit(a, 2);
    assert.deepEqual(codes(await c.diagnostics(a, (q) => q.version === 2)), ["OOM950", "OOM951"]);
    await c.waitFor(() => c.published.filter((q) => q.uri === b).length >= 2);
    assert.deepEqual(codes(c.published.filter((q) => q.uri === b).at(-1)), ["OOM950", "OOM951"]);

    // rewritten in place: the files are looked at within a second, so an
    // edit after that sees the new rule (each edit waits for its lint, and
    // the old rule's diagnostics until then are what the server must show)
    fs.writeFileSync(rule("OOM951-watched.scm"), ruleFile("OOM951", "criterion"));
    const before = ["OOM950 `criterion` is used", "OOM951 `loader` is used"];
    const after = ["OOM950 `criterion` is used", "OOM951 `criterion` is used"];
    let version = 3;
    for (;;) {
      await edit(a, version);
      const got = messages(await c.diagnostics(a, (q) => q.version === version));
      if (JSON.stringify(got) === JSON.stringify(after)) break;
      assert.deepEqual(got, before);
      version++;
    }

    // the settings' rulesDir, for a document without a configuration file
    const loose = p.uri("loose.py");
    await c.conn.sendNotification(rpc.DidChangeConfigurationNotification.type, {
      settings: { oomlint: { rulesDir: "settings-rules", select: ["OOM96"] } },
    });
    await c.open(loose, SAMPLE);
    assert.deepEqual(codes(await c.diagnostics(loose)), ["OOM960"]);
    fs.writeFileSync(path.join(p.dir, "settings-rules/OOM961-watched.scm"), ruleFile("OOM961", "loader").replace("(identifier)", "(no_such_node)"));
    await edit(loose, 2);
    // broken: shown as settings that cannot be applied, the rules that built stay
    const notApplied = () => c.messages.filter((m) => /^oomlint settings not applied: .*OOM961-watched\.scm/.test(m.message));
    await c.waitFor(() => notApplied().length >= 1);
    assert.deepEqual(codes(await c.diagnostics(loose, (q) => q.version === 2)), ["OOM960"]);
    // fixed as editors save: a new file renamed over the old one
    fs.writeFileSync(path.join(p.dir, "settings-rules/.OOM961.tmp"), ruleFile("OOM961", "loader"));
    fs.renameSync(path.join(p.dir, "settings-rules/.OOM961.tmp"), path.join(p.dir, "settings-rules/OOM961-watched.scm"));
    await edit(loose, 3);
    assert.deepEqual(codes(await c.diagnostics(loose, (q) => q.version === 3)), ["OOM960", "OOM961"]);
    // the broken rule was reported once for the settings; app/'s configuration
    // takes the settings' folder too, and reports it at most once itself
    assert.equal(notApplied().length, 1);
    assert.ok(c.messages.length <= 2, JSON.stringify(c.messages));
    await c.shutdown();
  });
});

/** Forty training functions, and the file's only autocast in amp_forward();
 *  the edit that removes it, and the text after it. */
function fortyLoops() {
  const units = [];
  for (let i = 0; i < 40; i++)
    units.push(
      `def train_${i}(model, loader, optimizer):`,
      `    """Epoch ${i}."""`,
      "    for x, y in loader:",
      "        loss = model(x.cuda()).sum()",
      "        loss.backward()",
      "        optimizer.step()",
      "        optimizer.zero_grad()",
      "",
      "",
    );
  const amp = ["def amp_forward(model, x):", '    with torch.autocast("cuda"):', "        return model(x)", "", ""];
  const text = ["import torch", "", "", ...amp, ...units].join("\n");
  const line = text.split("\n").indexOf('    with torch.autocast("cuda"):');
  const range = { start: { line, character: 0 }, end: { line: line + 2, character: 0 } };
  const newText = "    return model(x)\n";
  return { text, range, newText, after: applyEdits(text, [{ range, newText }]) };
}

test("a partial relint is confirmed by a whole-file lint once the typing stops", async () => {
  const { text, range, newText, after } = fortyLoops();
  const c = await startServer();
  await c.open(URI, text);
  const first = await c.diagnostics(URI, (p) => p.version === 1);
  assert.ok(!codes(first).includes("OOM401"));
  // remove the autocast: the relint of amp_forward() alone cannot see that
  // every training loop is now float32; the whole-file lint after it does
  await c.change(URI, 2, [{ range, text: newText }]);
  const confirmed = await c.diagnostics(URI, (p) => p.version === 2 && codes(p).includes("OOM401"));
  const fresh = "file:///work/space/fresh.py";
  await c.open(fresh, after);
  const expected = await c.diagnostics(fresh);
  assert.equal(codes(confirmed).filter((x) => x === "OOM401").length, 40);
  assert.deepEqual(confirmed.diagnostics, expected.diagnostics.map((d) => (d.data ? { ...d, data: { ...d.data, version: 2 } } : d)));
  // the partial one came first, for the same version
  const v2 = c.published.filter((p) => p.uri === URI && p.version === 2);
  assert.equal(v2.length, 2);
  assert.ok(!codes(v2[0]).includes("OOM401"));
  await c.shutdown();
});

test("a pulling client is asked to pull again when the whole-file lint changes the diagnostics", async () => {
  const { text, range, newText } = fortyLoops();
  const c = await startServer({
    capabilities: { textDocument: { diagnostic: {} }, workspace: { diagnostics: { refreshSupport: true } } },
  });
  const pull = () => c.conn.sendRequest(rpc.DocumentDiagnosticRequest.type, { textDocument: { uri: URI } });
  await c.open(URI, text);
  assert.ok(!(await pull()).items.some((d) => d.code === "OOM401"));
  const before = c.refreshes();
  await c.change(URI, 2, [{ range, text: newText }]);
  // the pull right after the edit gets the partial relint
  assert.ok(!(await pull()).items.some((d) => d.code === "OOM401"));
  await c.waitFor(() => c.refreshes() > before);
  assert.equal((await pull()).items.filter((d) => d.code === "OOM401").length, 40);
  assert.equal(c.published.length, 0);
  await c.shutdown();
});
