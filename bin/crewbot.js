#!/usr/bin/env node
// The compiled CLI; `npm ci` builds dist/ through the `prepare` script.
import { main } from "../dist/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
