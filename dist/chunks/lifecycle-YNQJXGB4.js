#!/usr/bin/env node
import { createRequire as __dgCreateRequire } from 'node:module';
import { fileURLToPath as __dgFileURLToPath } from 'node:url';
import { dirname as __dgDirname } from 'node:path';
const require = __dgCreateRequire(import.meta.url);
const __filename = __dgFileURLToPath(import.meta.url);
const __dirname = __dgDirname(__filename);
import {
  SHUTDOWN_DEADLINE_MS,
  beforeExit,
  runAbort,
  shutdown
} from "./chunk-QI4EDPPR.js";
import "./chunk-SDA2ORHP.js";
import "./chunk-3NKE7SWH.js";
import "./chunk-7ICKPVQF.js";
import "./chunk-ZMUO5JYW.js";
export {
  SHUTDOWN_DEADLINE_MS,
  beforeExit,
  runAbort,
  shutdown
};
