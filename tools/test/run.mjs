#!/usr/bin/env node
// `npm test`: lint (module boundaries), type check and contract drift (at once), then the tests of
// every project in two tiers, each one vitest run over all projects
// (tools/test/vitest.workspace.config.ts) — unit tests (src/**, and tools/**), then end-to-end
// tests (test/**, real processes, two files at a time: LEDGER_NODE_TEST_WORKERS, and beside them the
// files that mostly wait, one at a time: LEDGER_NODE_TEST_LANE) — ending with one
// summary line `tests: N passed, N failed, N skipped`. `--tier unit` or `--tier e2e` runs one tier
// (`npm run test:unit`, `npm run test:e2e`); other arguments name projects.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianPackages } from './apt.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outputDir = path.join(root, 'test-output');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const args = process.argv.slice(2);
const tierAt = args.indexOf('--tier');
const onlyTier = tierAt >= 0 ? args[tierAt + 1] : undefined;
if (tierAt >= 0 && onlyTier !== 'unit' && onlyTier !== 'e2e') {
  process.stderr.write('--tier must be unit or e2e\n');
  process.exit(2);
}
const extraArgs = tierAt >= 0 ? args.filter((_, position) => position !== tierAt && position !== tierAt + 1) : args;
const tiers = onlyTier ? [onlyTier] : ['unit', 'e2e'];

/** A step's environment: the caller's, Nx without its daemon and cloud, and `env`. */
const stepEnv = (env = {}) => ({ ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', ...env });
/** The line a step starts with: its title and command. */
const stepHeader = (title, command, args) => `\n== ${title}: ${[path.basename(command), ...args].join(' ')}\n`;
/** The line a step ends with: ok or how it failed (`code`: exit code or signal), and how long it took. */
const stepFooter = (title, code, startedAt, endedAt) => `== ${title}: ${code === 0 ? 'ok' : `FAILED (exit ${code})`} in ${((endedAt - startedAt) / 1000).toFixed(1)} s\n`;

/** How a step's process ended (`code`: exit code, signal, or why it could not start) and when. */
const childEnded = (child) =>
  new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: error.message, endedAt: Date.now() }));
    child.once('close', (code, signal) => resolve({ code: code ?? signal, endedAt: Date.now() }));
  });

/** Runs one step, its output as it comes, and says whether it passed; other steps may run meanwhile (`startHeld`). */
async function step(title, command, args, env = {}) {
  process.stdout.write(stepHeader(title, command, args));
  const started = Date.now();
  const { code, endedAt } = await childEnded(spawn(command, args, { cwd: root, stdio: 'inherit', env: stepEnv(env) }));
  process.stdout.write(stepFooter(title, code, started, endedAt));
  return code === 0;
}

// The facade's status-page test drives Debian's chromium through playwright-core (which never downloads
// a browser of its own); a fresh Debian/Ubuntu machine gets it from apt.
const chromiumPath = '/usr/bin/chromium';
const ensureChromium = () => ensureDebianPackages('browser', ['chromium'], () => existsSync(chromiumPath));

/** A step started with its output held (`printHeld` prints it whole once it ends), so that other steps run meanwhile. */
function startHeld({ title, command, args, env }) {
  const started = Date.now();
  let output = '';
  const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: stepEnv(env) });
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return { title, command, args, started, ended: childEnded(child), output: () => output };
}

/** Waits for a step of `startHeld` to end, prints its output whole, and says whether it passed. */
async function printHeld(run) {
  const { code, endedAt } = await run.ended;
  process.stdout.write(`${stepHeader(run.title, run.command, run.args)}${run.output()}${stepFooter(run.title, code, run.started, endedAt)}`);
  return code === 0;
}

/**
 * Steps that need nothing of each other, run at once (each single-threaded: together they take the
 * longest one's time on two cores), each one's output printed whole, in the order given, as it ends.
 * Answers the titles of those that failed.
 */
async function stepsAtOnce(steps) {
  const runs = steps.map(startHeld);
  const failed = [];
  for (const run of runs) if (!(await printHeld(run))) failed.push(run.title);
  return failed;
}

const failedSteps = [];
rmSync(outputDir, { recursive: true, force: true });
// Only the end-to-end tier drives a browser.
if (tiers.includes('e2e') && !ensureChromium()) failedSteps.push('browser');

// Nx must see every project before the boundary rule runs.
if (!(await step('projects', bin('nx'), ['show', 'projects']))) failedSteps.push('projects');
failedSteps.push(
  ...(await stepsAtOnce([
    { title: 'lint', command: bin('eslint'), args: ['.'] },
    { title: 'typecheck', command: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
    { title: 'contract drift', command: process.execPath, args: ['tools/gen/check.mjs'] },
  ])),
);
const projectsEnv = extraArgs.length > 0 ? { LEDGER_NODE_TEST_PROJECTS: extraArgs.join(',') } : {};
// The processes the end-to-end tests start run the sources bundled once here (libs/test-utils
// cliEntry), as the container image runs them, rather than each through tsx's loader: a node's six
// processes start in about a third of the time.
const testBundle = path.join(root, 'node_modules/.cache/ledger-node/test-bundle');
for (const tier of tiers) {
  const env = { LEDGER_NODE_TEST_TIER: tier, ...projectsEnv };
  if (tier === 'e2e') {
    if (!(await step('bundle for the end-to-end tests', process.execPath, ['tools/build/build.mjs', '--outdir', testBundle]))) {
      failedSteps.push('bundle');
      continue;
    }
    env.LEDGER_NODE_TEST_CLI = path.join(testBundle, 'ledger-node.mjs');
  }
  const vitestArgs = ['run', '--config', 'tools/test/vitest.workspace.config.ts'];
  if (tier === 'unit') {
    if (!(await step(`${tier} tests`, bin('vitest'), vitestArgs, env))) failedSteps.push(`${tier} tests`);
    continue;
  }
  // The end-to-end tier in two lanes at once (vitest.workspace.config.ts): the waiting files one at
  // a time beside the others, its output printed whole when it ends, after the main lane's.
  const waiting = startHeld({ title: 'e2e tests, waiting lane', command: bin('vitest'), args: vitestArgs, env: { ...env, LEDGER_NODE_TEST_LANE: 'waiting' } });
  if (!(await step('e2e tests', bin('vitest'), vitestArgs, { ...env, LEDGER_NODE_TEST_LANE: 'main' }))) failedSteps.push('e2e tests');
  if (!(await printHeld(waiting))) failedSteps.push(waiting.title);
}

let passed = 0;
let failed = 0;
let skipped = 0;
// Every failure again at the end, with the first lines of its message, so that the tail of a long log names it.
const failures = [];
const firstLines = (text) => String(text ?? '').split('\n').slice(0, 6).join('\n    ');
if (existsSync(outputDir)) {
  for (const file of readdirSync(outputDir).filter((name) => name.endsWith('.json'))) {
    const report = JSON.parse(readFileSync(path.join(outputDir, file), 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    for (const suite of report.testResults ?? []) {
      const where = path.relative(root, suite.name ?? '');
      const failedTests = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
      for (const test of failedTests) failures.push(`${where} > ${test.fullName}\n    ${firstLines(test.failureMessages?.[0])}`);
      if (suite.status === 'failed' && failedTests.length === 0) failures.push(`${where}\n    ${firstLines(suite.message)}`);
    }
  }
}
if (failures.length > 0) process.stdout.write(`\nfailures:\n${failures.map((failure) => `- ${failure}`).join('\n')}\n`);
// The fault suites' figures (libs/test-utils printFigures), together.
const figuresFile = path.join(outputDir, 'figures.txt');
if (existsSync(figuresFile)) process.stdout.write(`\n${readFileSync(figuresFile, 'utf8')}`);
if (failedSteps.length > 0) process.stdout.write(`\nfailed steps: ${failedSteps.join(', ')}\n`);
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failedSteps.length > 0 || failed > 0 ? 1 : 0);
