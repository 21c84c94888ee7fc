// Reads GIFT text on stdin with gift-pegjs, a GIFT parser written apart from this app, and
// prints what it read as JSON; tests/formats/test_gift_pegjs.py checks the app's GIFT exports
// against it. A file it cannot parse is reported on stderr, with its line and column, and the
// exit status is 1.
import { readFileSync } from "node:fs";
import { parse } from "gift-pegjs";

const text = readFileSync(0, "utf8");
let questions;
try {
  questions = parse(text);
} catch (error) {
  const where = error.location ? `${error.location.start.line}:${error.location.start.column}: ` : "";
  process.stderr.write(`gift-pegjs: ${where}${error.message}\n`);
  process.exit(1);
}
process.stdout.write(JSON.stringify(questions));
