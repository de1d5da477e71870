// The RECYCLE extension: highlighting comes from syntaxes/recycle.tmLanguage.json; everything else
// (checks as you type, hover, completion, definitions, references, outline, formatting) from the
// language server that `recycle lsp` starts, spoken to over stdio.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("recycle").get("server.command", ["recycle", "lsp"]);
  const server = { command, args };
  client = new LanguageClient(
    "recycle",
    "RECYCLE language server",
    { run: server, debug: server },
    {
      documentSelector: [{ scheme: "file", language: "recycle" }],
      synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.{gdl,rcy}") },
      // how the server reads game files (recycle lsp --dialect); a change applies when the server restarts
      initializationOptions: { dialect: vscode.workspace.getConfiguration("recycle").get("dialect", "auto") },
    }
  );
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
