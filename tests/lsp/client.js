// A test client for `oomlint server` built on vscode-languageserver-protocol:
// starts the real binary, records what it publishes, applies text edits.
"use strict";
const { spawn } = require("node:child_process");
const rpc = require("vscode-languageserver-protocol/node");

const BIN = process.env.OOMLINT_BIN;
if (!BIN) throw new Error("OOMLINT_BIN must name the oomlint binary");

/** Start a server (`oomlint ARGS... server`, ENV added to this process's
 *  environment); CAPABILITIES, INIT_OPTIONS, ROOT_URI and WORKSPACE_FOLDERS
 *  go into initialize. */
async function startServer({
  capabilities = {},
  initializationOptions,
  initialize = true,
  args = [],
  rootUri = null,
  workspaceFolders,
  env = {},
} = {}) {
  const proc = spawn(BIN, [...args, "server"], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } });
  let stderr = "";
  proc.stderr.on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => proc.on("exit", (code, signal) => resolve({ code, signal })));
  const conn = rpc.createProtocolConnection(
    new rpc.StreamMessageReader(proc.stdout),
    new rpc.StreamMessageWriter(proc.stdin),
  );
  const published = []; // every publishDiagnostics, in order
  const messages = []; // window/showMessage
  const registrations = []; // client/registerCapability
  let waiters = [];
  const notify = () => {
    waiters = waiters.filter((w) => !w());
  };
  conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
    published.push(p);
    notify();
  });
  conn.onNotification(rpc.ShowMessageNotification.type, (p) => {
    messages.push(p);
    notify();
  });
  let refreshes = 0; // workspace/diagnostic/refresh requests
  conn.onRequest("workspace/diagnostic/refresh", () => {
    refreshes++;
    notify();
    return null;
  });
  conn.onRequest(rpc.RegistrationRequest.type, (p) => {
    registrations.push(...p.registrations);
    notify();
    return null;
  });
  conn.onError(() => {});
  conn.listen();

  const client = {
    refreshes: () => refreshes,
    proc,
    conn,
    exited,
    published,
    messages,
    registrations,
    stderr: () => stderr,
    /** Resolve with the first publication for URI that PREDICATE accepts. */
    diagnostics(uri, predicate = () => true, timeoutMs = 20000) {
      const find = () => published.find((p) => p.uri === uri && predicate(p));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no diagnostics for ${uri} in ${timeoutMs} ms; stderr: ${stderr}`)),
          timeoutMs,
        );
        const check = () => {
          const p = find();
          if (p) {
            clearTimeout(timer);
            resolve(p);
          }
          return !!p;
        };
        if (!check()) waiters.push(check);
      });
    },
    waitFor(predicate, timeoutMs = 20000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("timed out; stderr: " + stderr)), timeoutMs);
        const check = () => {
          if (!predicate()) return false;
          clearTimeout(timer);
          resolve();
          return true;
        };
        if (!check()) waiters.push(check);
      });
    },
    open(uri, text, version = 1) {
      return conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: "python", version, text },
      });
    },
    /** workspace/didChangeWatchedFiles for file URIS, all of TYPE (2: changed). */
    filesChanged(uris, type = rpc.FileChangeType.Changed) {
      return conn.sendNotification(rpc.DidChangeWatchedFilesNotification.type, {
        changes: uris.map((uri) => ({ uri, type })),
      });
    },
    change(uri, version, contentChanges) {
      return conn.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges,
      });
    },
    async shutdown() {
      await conn.sendRequest(rpc.ShutdownRequest.type);
      await conn.sendNotification(rpc.ExitNotification.type);
      const status = await exited;
      conn.dispose();
      return status;
    },
    kill() {
      conn.dispose();
      proc.kill("SIGKILL");
    },
  };
  if (initialize) {
    client.init = await conn.sendRequest(rpc.InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders,
      capabilities,
      initializationOptions,
    });
    await conn.sendNotification(rpc.InitializedNotification.type, {});
  }
  return client;
}

/** Apply LSP TextEdits (UTF-16 positions, which JavaScript strings count in).
 *  Lines end at "\n", "\r\n" and a lone "\r", as the LSP says. */
function applyEdits(text, edits) {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++)
    if (text[i] === "\n" || (text[i] === "\r" && text[i + 1] !== "\n")) lineStarts.push(i + 1);
  const offset = (p) => Math.min((lineStarts[p.line] ?? text.length) + p.character, text.length);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  return text;
}

/** The edits of a WorkspaceEdit for URI (changes or documentChanges). */
function editsFor(edit, uri) {
  if (edit.changes) return edit.changes[uri] || [];
  return (edit.documentChanges || []).filter((d) => d.textDocument.uri === uri).flatMap((d) => d.edits);
}

module.exports = { startServer, applyEdits, editsFor, rpc };
