// The oomlint extension: starts `oomlint server` for Python files and hands
// it the settings; diagnostics, quick fixes and hovers come from the server.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions } from "vscode-languageclient/node";
import { resolveServerPath } from "./findBinary";

let client: LanguageClient | undefined;

/** The settings the server reads (select, ignore, rulesDir). */
function serverSettings(): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration("oomlint");
  return {
    select: config.get<string[]>("select", []),
    ignore: config.get<string[]>("ignore", []),
    rulesDir: config.get<string>("rulesDir", ""),
  };
}

async function start(): Promise<void> {
  const config = vscode.workspace.getConfiguration("oomlint");
  if (!config.get<boolean>("enable", true)) return;
  const command = resolveServerPath(config.get<string>("path", ""));
  if (!command) {
    void vscode.window.showErrorMessage(
      "oomlint: no `oomlint` executable on PATH. Install oomlint or set `oomlint.path`.",
    );
    return;
  }
  // no `transport`: the client would add a --stdio flag, and the server
  // speaks on stdio without one
  const serverOptions: ServerOptions = {
    command,
    args: [...config.get<string[]>("args", []), "server"],
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "python" },
      { scheme: "untitled", language: "python" },
      // Jupyter notebooks' Python cells: the server lints a notebook's code
      // cells as one module (LSP notebook sync) and answers per cell
      { notebook: { notebookType: "jupyter-notebook" }, language: "python" },
    ],
    initializationOptions: serverSettings(),
    synchronize: { configurationSection: "oomlint" },
  };
  client = new LanguageClient("oomlint", "oomlint", serverOptions, clientOptions);
  await client.start();
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) await running.stop();
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  context.subscriptions.push(
    vscode.commands.registerCommand("oomlint.restart", restart),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      // select/ignore/rulesDir reach the running server; these need a new one
      if (["enable", "path", "args"].some((key) => event.affectsConfiguration(`oomlint.${key}`))) await restart();
    }),
  );
  await start();
}

export function deactivate(): Promise<void> {
  return stop();
}
