// Validates a SARIF log (a file, or stdin) against the SARIF 2.1.0 JSON
// schema, offline: the draft-04 schema shipped in @microsoft/jest-sarif.
"use strict";
const fs = require("fs");
const path = require("path");
const Ajv = require("ajv-draft-04");
const addFormats = require("ajv-formats");

const schemaFile = path.join(
  path.dirname(require.resolve("@microsoft/jest-sarif/package.json")),
  "lib/schemas/sarif-2.1.0-rtm.5.json",
);
const schema = JSON.parse(fs.readFileSync(schemaFile, "utf8"));
// the schema has one pattern (`language`) that is invalid under the u flag
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validate = ajv.compile(schema);

const input = process.argv[2] ? fs.readFileSync(process.argv[2], "utf8") : fs.readFileSync(0, "utf8");
const log = JSON.parse(input);
if (!validate(log)) {
  for (const e of validate.errors) console.error(`${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`);
  console.error(`invalid: ${validate.errors.length} schema error(s) against ${schema.title}`);
  process.exit(1);
}
const results = log.runs.reduce((n, r) => n + r.results.length, 0);
console.log(`valid: ${schema.title}; ${log.runs.length} run(s), ${results} result(s)`);
