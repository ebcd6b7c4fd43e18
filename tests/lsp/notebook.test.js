// End-to-end tests of notebook documents (LSP 3.17 notebookDocument/*), as
// VS Code sends a Jupyter notebook: the code cells linted as one module
// (state flows from cell to cell), diagnostics published to each cell's URI
// in the cell's own lines, quick fixes per cell, cells added and removed.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const { startServer, applyEdits, editsFor } = require("./client");

const NB = "file:///tmp/oomlint-lsp-notebook/train.ipynb";
const cell = (n) => `vscode-notebook-cell:/tmp/oomlint-lsp-notebook/train.ipynb#W${n}sZmlsZQ%3D%3D`;

const SETUP = [
  "%matplotlib inline",
  "!pip install -q torch",
  "import torch",
  "from torch import nn",
  "model = nn.Linear(8, 2).cuda()",
  "opt = torch.optim.SGD(model.parameters(), lr=0.1)",
].join("\n");
const TRAIN = [
  "total_loss = 0",
  "for x, y in train_loader:",
  "    opt.zero_grad()",
  "    loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())",
  "    loss.backward()",
  "    opt.step()",
  "    total_loss += loss",
].join("\n");
const EVAL = ["model.eval()", "for x, y in val_loader:", "    print(model(x.cuda()).argmax(1))"].join("\n");

function openNotebook(c, cells) {
  return c.conn.sendNotification("notebookDocument/didOpen", {
    notebookDocument: {
      uri: NB,
      notebookType: "jupyter-notebook",
      version: 1,
      cells: cells.map(([n, kind]) => ({ kind, document: cell(n) })),
    },
    cellTextDocuments: cells
      .filter(([, kind]) => kind === 2)
      .map(([n, , text]) => ({ uri: cell(n), languageId: "python", version: 1, text })),
  });
}

const codes = (p) => p.diagnostics.map((d) => d.code);

test("notebook sync is advertised for Jupyter notebooks' Python cells", async () => {
  const c = await startServer();
  const sync = c.init.capabilities.notebookDocumentSync;
  assert.equal(sync.notebookSelector[0].notebook.notebookType, "jupyter-notebook");
  assert.equal(sync.notebookSelector[0].cells[0].language, "python");
  await c.shutdown();
});

test("diagnostics per cell, in the cell's lines; a quick fix per cell; cells added, changed and closed", async () => {
  const c = await startServer({ capabilities: { workspace: { workspaceEdit: { documentChanges: true } } } });
  await openNotebook(c, [
    [1, 2, SETUP],
    [2, 1, "# Training"],
    [3, 2, TRAIN],
    [4, 2, EVAL],
  ]);
  // the setup cell's magics are not syntax errors; it gets an empty list
  const p1 = await c.diagnostics(cell(1));
  assert.deepEqual(codes(p1), []);
  // the training cell: OOM101 on its 7th line (0-based 6), column 4
  const p3 = await c.diagnostics(cell(3));
  const acc = p3.diagnostics.find((d) => d.code === "OOM101");
  assert.ok(acc, JSON.stringify(p3));
  assert.deepEqual(acc.range.start, { line: 6, character: 4 });
  // the evaluation cell after the training cell is an evaluation context
  const p4 = await c.diagnostics(cell(4));
  const ev = p4.diagnostics.find((d) => d.code === "OOM201");
  assert.ok(ev, JSON.stringify(p4));
  assert.equal(ev.range.start.line, 2);
  // hover on it shows the message and the rule's documentation
  const hover = await c.conn.sendRequest("textDocument/hover", {
    textDocument: { uri: cell(3) },
    position: { line: 6, character: 6 },
  });
  assert.match(hover.contents.value, /accumulates `loss`/);
  assert.match(hover.contents.value, /OOM101/);
  assert.deepEqual(hover.range.start, { line: 6, character: 4 });
  // nothing is published for the notebook itself or the markdown cell
  assert.ok(!c.published.some((p) => p.uri === NB || p.uri === cell(2)));

  // the quick fix edits the cell, in the cell's version
  const actions = await c.conn.sendRequest("textDocument/codeAction", {
    textDocument: { uri: cell(3) },
    range: acc.range,
    context: { diagnostics: [acc], only: ["quickfix"] },
  });
  const fix = actions.find((a) => a.title.startsWith("Fix OOM101"));
  assert.ok(fix, JSON.stringify(actions));
  assert.equal(fix.edit.documentChanges[0].textDocument.uri, cell(3));
  assert.equal(fix.edit.documentChanges[0].textDocument.version, 1);
  const fixed = applyEdits(TRAIN, editsFor(fix.edit, cell(3)));
  assert.match(fixed, /total_loss \+= loss\.item\(\)$/);
  const off = actions.find((a) => a.title === "Disable OOM101 for this line");
  assert.match(applyEdits(TRAIN, editsFor(off.edit, cell(3))), /total_loss \+= loss  # noqa: OOM101$/);

  await c.conn.sendNotification("notebookDocument/didChange", {
    notebookDocument: { uri: NB, version: 2 },
    change: { cells: { textContent: [{ document: { uri: cell(3), version: 2 }, changes: [{ text: fixed }] }] } },
  });
  await c.diagnostics(cell(3), (p) => p !== p3 && !codes(p).includes("OOM101"));

  // a new cell between the markdown and training cells, then removed
  await c.conn.sendNotification("notebookDocument/didChange", {
    notebookDocument: { uri: NB, version: 3 },
    change: {
      cells: {
        structure: {
          array: { start: 2, deleteCount: 0, cells: [{ kind: 2, document: cell(5) }] },
          didOpen: [{ uri: cell(5), languageId: "python", version: 1, text: "state = torch.load(path)" }],
        },
      },
    },
  });
  const p5 = await c.diagnostics(cell(5), (p) => codes(p).includes("OOM303"));
  assert.deepEqual(p5.diagnostics[0].range.start, { line: 0, character: 8 });
  const before = c.published.length;
  await c.conn.sendNotification("notebookDocument/didChange", {
    notebookDocument: { uri: NB, version: 4 },
    change: {
      cells: { structure: { array: { start: 2, deleteCount: 1 }, didClose: [{ uri: cell(5) }] } },
    },
  });
  await c.waitFor(() => c.published.slice(before).some((p) => p.uri === cell(5) && p.diagnostics.length === 0));

  // closing the notebook clears every cell
  const atClose = c.published.length;
  await c.conn.sendNotification("notebookDocument/didClose", {
    notebookDocument: { uri: NB },
    cellTextDocuments: [{ uri: cell(1) }, { uri: cell(3) }, { uri: cell(4) }],
  });
  await c.waitFor(() =>
    [1, 3, 4].every((n) => c.published.slice(atClose).some((p) => p.uri === cell(n) && p.diagnostics.length === 0)),
  );
  assert.equal((await c.shutdown()).code, 0);
});

test("a cell changed incrementally is linted with the others; a malformed notebook message is ignored", async () => {
  const c = await startServer();
  await c.conn.sendNotification("notebookDocument/didOpen", { notebookDocument: { uri: NB } });
  await c.conn.sendNotification("notebookDocument/didChange", { notebookDocument: { uri: "file:///nope.ipynb" } });
  await openNotebook(c, [
    [1, 2, SETUP],
    [3, 2, TRAIN.replace("    total_loss += loss", "    pass")],
  ]);
  const p = await c.diagnostics(cell(3));
  assert.ok(!codes(p).includes("OOM101"));
  // type the accumulation back at the cell's end
  await c.conn.sendNotification("notebookDocument/didChange", {
    notebookDocument: { uri: NB, version: 2 },
    change: {
      cells: {
        textContent: [
          {
            document: { uri: cell(3), version: 2 },
            changes: [{ range: { start: { line: 6, character: 4 }, end: { line: 6, character: 8 } }, text: "total_loss += loss" }],
          },
        ],
      },
    },
  });
  const q = await c.diagnostics(cell(3), (r) => codes(r).includes("OOM101"));
  assert.equal(q.diagnostics.find((d) => d.code === "OOM101").range.start.line, 6);
  assert.equal((await c.shutdown()).code, 0);
});

test("a client that pulls diagnostics still gets a notebook's pushed per cell; a cell's pull is empty", async () => {
  const c = await startServer({ capabilities: { textDocument: { diagnostic: { dynamicRegistration: false } } } });
  assert.ok(c.init.capabilities.diagnosticProvider);
  await openNotebook(c, [
    [1, 2, SETUP],
    [3, 2, TRAIN],
  ]);
  const p = await c.diagnostics(cell(3), (q) => codes(q).includes("OOM101"));
  assert.equal(p.diagnostics.find((d) => d.code === "OOM101").range.start.line, 6);
  // pushed and pulled diagnostics are shown together: the pull adds nothing twice
  const report = await c.conn.sendRequest("textDocument/diagnostic", { textDocument: { uri: cell(3) } });
  assert.equal(report.kind, "full");
  assert.deepEqual(report.items, []);
  assert.equal((await c.shutdown()).code, 0);
});

test("a notebook edited cell by cell gets what a freshly opened one gets", async () => {
  const c = await startServer();
  const FN = [
    "def train(loader):",
    "    total = 0",
    "    for x, y in loader:",
    "        opt.zero_grad()",
    "        loss = nn.functional.cross_entropy(model(x.cuda()), y.cuda())",
    "        loss.backward()",
    "        opt.step()",
    "        total += loss",
    "    return total",
  ].join("\n");
  const texts = { 1: SETUP, 3: FN, 4: EVAL };
  await openNotebook(c, [
    [1, 2, texts[1]],
    [3, 2, texts[3]],
    [4, 2, texts[4]],
  ]);
  await c.diagnostics(cell(3), (p) => codes(p).includes("OOM101"));
  const edit = async (version, n, range, text) => {
    await c.conn.sendNotification("notebookDocument/didChange", {
      notebookDocument: { uri: NB, version },
      change: { cells: { textContent: [{ document: { uri: cell(n), version }, changes: [{ range, text }] }] } },
    });
    texts[n] = applyEdits(texts[n], [{ range, newText: text }]);
  };
  const at = (line, character) => ({ start: { line, character }, end: { line, character } });
  // inside the function: a line added above the accumulation, which moves down
  await edit(2, 3, at(3, 0), "        print(x.shape)\n");
  // the setup cell loses its second magic and gains a line
  await edit(3, 1, { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } }, "");
  await edit(4, 1, at(0, 0), "import os\n");
  // the evaluation cell: under no_grad now
  await edit(5, 4, at(0, 0), "torch.set_grad_enabled(False)\n");
  const shape = (p) => p.diagnostics.map((d) => `${d.code}@${d.range.start.line}:${d.range.start.character}`).sort();
  await c.waitFor(() => {
    const last = [...c.published].reverse().find((p) => p.uri === cell(3));
    return last && shape(last).includes("OOM101@8:8");
  });
  // the same cells, opened fresh as another notebook
  const NB2 = "file:///tmp/oomlint-lsp-notebook/fresh.ipynb";
  const cell2 = (n) => `vscode-notebook-cell:/tmp/oomlint-lsp-notebook/fresh.ipynb#W${n}`;
  await c.conn.sendNotification("notebookDocument/didOpen", {
    notebookDocument: {
      uri: NB2,
      notebookType: "jupyter-notebook",
      version: 1,
      cells: [1, 3, 4].map((n) => ({ kind: 2, document: cell2(n) })),
    },
    cellTextDocuments: [1, 3, 4].map((n) => ({ uri: cell2(n), languageId: "python", version: 1, text: texts[n] })),
  });
  for (const n of [1, 3, 4]) {
    const fresh = await c.diagnostics(cell2(n));
    // the edited notebook's latest publication for that cell, once the confirming lint is done
    await c.waitFor(() => {
      const last = [...c.published].reverse().find((p) => p.uri === cell(n));
      return last && JSON.stringify(shape(last)) === JSON.stringify(shape(fresh));
    }, 5000);
  }
  assert.equal((await c.shutdown()).code, 0);
});
