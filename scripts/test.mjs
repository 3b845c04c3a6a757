// `npm test`: every test. Type check, worker tests inside workerd, web unit tests, then the
// end-to-end tests in Chromium against `wrangler dev`. Prints each failing test (suite, file, title,
// first line of the failure) and then one closing "N passed, N failed".
import { mkdirSync, readFileSync, existsSync, rmSync } from "node:fs";
import { root, run } from "./lib.mjs";

const outDir = `${root}.tmp/test-results`;
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const suites = [
  { name: "typecheck", cmd: "tsc", args: ["-b"] },
  { name: "worker", cmd: "vitest", args: ["run", "--config", "vitest.config.mts"], json: "worker.json" },
  { name: "web", cmd: "vitest", args: ["run", "--config", "web/vitest.config.mts"], json: "web.json" },
  { name: "e2e", cmd: "node", args: ["e2e/run.mjs"], json: "e2e.json" },
];

let passed = 0;
let failed = 0;
const problems = [];
/** Each failing test as "suite file > title: first line of its failure", repeated at the end so the tail of a CI log names it. */
const failures = [];
for (const suite of suites) {
  console.log(`\n=== ${suite.name} ===`);
  const args = suite.json
    ? [...suite.args, "--reporter=default", "--reporter=json", `--outputFile.json=${outDir}/${suite.json}`]
    : suite.args;
  const code = await run(suite.cmd, args);
  const file = suite.json ? `${outDir}/${suite.json}` : null;
  if (file && existsSync(file)) {
    const report = JSON.parse(readFileSync(file, "utf8"));
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    for (const result of report.testResults ?? []) {
      const path = String(result.name ?? "").replace(root, "");
      const failedTests = (result.assertionResults ?? []).filter((a) => a.status === "failed");
      for (const a of failedTests) {
        const first = String(a.failureMessages?.[0] ?? "").split("\n").find((line) => line.trim()) ?? "";
        failures.push(`${suite.name} ${path} > ${a.fullName ?? a.title}: ${first.slice(0, 300)}`);
      }
      // A file that failed before any test ran (an import error, a hook) has no failed test to name.
      if (result.status === "failed" && failedTests.length === 0) {
        failures.push(`${suite.name} ${path}: ${String(result.message ?? "failed").split("\n")[0].slice(0, 300)}`);
      }
    }
  } else if (!suite.json) {
    if (code === 0) passed += 1;
    else failed += 1;
  }
  if (code !== 0) problems.push(`${suite.name} exited with ${code}`);
}

if (failures.length) console.log(`\nFailing tests:\n${failures.map((f) => `  - ${f}`).join("\n")}`);
if (problems.length) console.log(`\nFailing suites: ${problems.join("; ")}`);
if (problems.length && failed === 0) failed = problems.length;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(problems.length ? 1 : 0);
