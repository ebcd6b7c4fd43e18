// End-to-end tests of `oomlint server` on damaged input, written as raw bytes:
// malformed headers, wrong Content-Length, invalid JSON and UTF-8, messages
// that are not requests, a message over the size limit. The server answers or
// logs, and keeps serving.
"use strict";
const { test } = require("node:test");
const assert = require("node:assert/strict");
const { spawn } = require("node:child_process");

const BIN = process.env.OOMLINT_BIN;

function frame(body) {
  const b = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
  return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`), b]);
}

/** A server with a raw pipe: send(bytes), next() -> the next message it writes. */
function rawServer() {
  const proc = spawn(BIN, ["server"], { stdio: ["pipe", "pipe", "pipe"] });
  let out = Buffer.alloc(0);
  let stderr = "";
  const queue = [];
  let wake = null;
  proc.stderr.on("data", (d) => (stderr += d));
  proc.stdout.on("data", (d) => {
    out = Buffer.concat([out, d]);
    for (;;) {
      const end = out.indexOf("\r\n\r\n");
      if (end < 0) break;
      const m = /Content-Length: (\d+)/i.exec(out.subarray(0, end).toString());
      const n = Number(m[1]);
      if (out.length < end + 4 + n) break;
      queue.push(JSON.parse(out.subarray(end + 4, end + 4 + n).toString()));
      out = out.subarray(end + 4 + n);
    }
    if (wake && queue.length) wake();
  });
  proc.stdin.on("error", () => {});
  const exited = new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
  return {
    proc,
    exited,
    stderr: () => stderr,
    send: (bytes) => new Promise((resolve) => proc.stdin.write(bytes, resolve)),
    next(timeoutMs = 20000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no message; stderr: " + stderr)), timeoutMs);
        const take = () => {
          if (!queue.length) return;
          clearTimeout(timer);
          wake = null;
          resolve(queue.shift());
        };
        wake = take;
        take();
      });
    },
  };
}

const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { capabilities: {} } };

test("malformed framing and bodies get an error or a log line, and the server goes on", async () => {
  const s = rawServer();
  await s.send(frame(initialize));
  assert.equal((await s.next()).id, 1);

  await s.send(Buffer.from("this is not a header\r\n\r\n"));
  await s.send(Buffer.from("Content-Length: twelve\r\n\r\n{}"));
  await s.send(frame({ jsonrpc: "2.0", id: 2, method: "oomlint/none" }));
  assert.equal((await s.next()).error.code, -32601);

  await s.send(frame("{not json"));
  const parse = await s.next();
  assert.equal(parse.error.code, -32700);
  assert.equal(parse.id, null);

  await s.send(frame(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]))); // {"a":"\xff"}
  assert.equal((await s.next()).error.code, -32700);

  await s.send(frame("[1, 2]"));
  assert.equal((await s.next()).error.code, -32600);
  await s.send(frame({ jsonrpc: "2.0", id: { no: 1 }, method: "shutdown" }));
  assert.equal((await s.next()).error.code, -32600);
  await s.send(frame({ jsonrpc: "2.0", id: 3, method: "textDocument/hover", params: 7 }));
  assert.equal((await s.next()).error.code, -32602);
  await s.send(frame({ jsonrpc: "2.0", id: 4, method: "textDocument/hover", params: { textDocument: 5 } }));
  assert.equal((await s.next()).result, null);

  // a Content-Length too small: the cut body is invalid JSON, its tail runs into the next header
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 5, method: "oomlint/none" }));
  await s.send(Buffer.concat([Buffer.from(`Content-Length: ${body.length - 4}\r\n\r\n`), body]));
  assert.equal((await s.next()).error.code, -32700);
  await s.send(frame({ jsonrpc: "2.0", id: 6, method: "oomlint/none" }));
  assert.equal((await s.next()).id, 6);

  // a didOpen with a NUL byte in the text: linted (OOM000 reports it)
  await s.send(frame('{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///n.py","languageId":"python","version":1,"text":"x = 1\\u0000\\n"}}}'));
  const pub = await s.next();
  assert.equal(pub.method, "textDocument/publishDiagnostics");
  assert.equal(pub.params.diagnostics[0].code, "OOM000");
  // a lone surrogate is not Unicode: jansson refuses the message
  await s.send(frame('{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///s.py","languageId":"python","version":1,"text":"\\ud800"}}}'));
  assert.equal((await s.next()).error.code, -32700);

  await s.send(frame({ jsonrpc: "2.0", id: 7, method: "shutdown" }));
  assert.equal((await s.next()).id, 7);
  await s.send(frame({ jsonrpc: "2.0", method: "exit" }));
  assert.equal(await s.exited, 0);
  assert.match(s.stderr(), /malformed header/);
  assert.match(s.stderr(), /invalid Content-Length/);
});

test("a message over the size limit is skipped and its request answered", async () => {
  const s = rawServer();
  await s.send(frame(initialize));
  await s.next();
  const huge = Buffer.alloc(65 << 20, 0x61);
  const head = Buffer.from('{"jsonrpc":"2.0","id":99,"method":"textDocument/hover","params":{"x":"');
  const tail = Buffer.from('"}}');
  await s.send(frame(Buffer.concat([head, huge, tail])));
  const answer = await s.next(60000);
  assert.equal(answer.id, 99);
  assert.equal(answer.error.code, -32600);
  assert.match(answer.error.message, /skipped/);
  await s.send(frame({ jsonrpc: "2.0", id: 100, method: "shutdown" }));
  assert.equal((await s.next()).id, 100);
  await s.send(frame({ jsonrpc: "2.0", method: "exit" }));
  assert.equal(await s.exited, 0);
});

test("malformed didChangeWorkspaceFolders params are ignored", async () => {
  const s = rawServer();
  await s.send(frame({ ...initialize, params: { capabilities: {}, workspaceFolders: [{ uri: "file:///w", name: "w" }] } }));
  await s.next();
  await s.send(frame({ jsonrpc: "2.0", method: "textDocument/didOpen", params: { textDocument: { uri: "file:///w/a/t.py", languageId: "python", version: 1, text: "x = 1\n" } } }));
  assert.equal((await s.next()).method, "textDocument/publishDiagnostics");
  const change = (params) => s.send(frame({ jsonrpc: "2.0", method: "workspace/didChangeWorkspaceFolders", params }));
  for (const params of [
    undefined,
    [],
    {},
    { event: null },
    { event: 7 },
    { event: { added: "file:///w/a", removed: [] } },
    { event: { added: [], removed: { uri: "file:///w" } } },
    { event: { added: [7, null, "file:///x", {}, { uri: 5 }, { uri: null }, { uri: "" }, { uri: "untitled:a" }, { uri: "https://example.invalid/a" }, { uri: "file:" }, { uri: "file://" }, { uri: "file://host" }] } },
    { event: { removed: [7, { uri: ["file:///w"] }, { uri: "file:///nowhere" }, { uri: "file:relative" }] } },
    { event: { added: [{ uri: "file:///w/%2" + "e%2e/./a/" }] } }, // a spelling of file:///a: no document is under it
  ])
    await change(params);
  // still serving, and no publication came from any of them
  await s.send(frame({ jsonrpc: "2.0", id: 2, method: "oomlint/none" }));
  assert.equal((await s.next()).id, 2);
  // a valid change that moves the document's bound: it is linted again
  await change({ event: { added: [{ uri: "file:///w/a", name: "a" }], removed: [] } });
  assert.equal((await s.next()).method, "textDocument/publishDiagnostics");
  await s.send(frame({ jsonrpc: "2.0", id: 3, method: "shutdown" }));
  assert.equal((await s.next()).id, 3);
  await s.send(frame({ jsonrpc: "2.0", method: "exit" }));
  assert.equal(await s.exited, 0);
  assert.match(s.stderr(), /didChangeWorkspaceFolders without an event of arrays: ignored/);
  assert.match(s.stderr(), /a workspace folder without a uri: ignored/);
});

test("the end of input without exit ends the server with status 1", async () => {
  const s = rawServer();
  await s.send(frame(initialize));
  await s.next();
  s.proc.stdin.end(Buffer.from("Content-Length: 100\r\n\r\n{\"partial"));
  assert.equal(await s.exited, 1);
  assert.match(s.stderr(), /ended inside a message/);
});
