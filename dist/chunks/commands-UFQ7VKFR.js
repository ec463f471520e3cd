#!/usr/bin/env node
import { createRequire as __dgCreateRequire } from 'node:module';
import { fileURLToPath as __dgFileURLToPath } from 'node:url';
import { dirname as __dgDirname } from 'node:path';
const require = __dgCreateRequire(import.meta.url);
const __filename = __dgFileURLToPath(import.meta.url);
const __dirname = __dgDirname(__filename);
import {
  HANDLERS,
  runCommand
} from "./chunk-PBSXWK4V.js";
import "./chunk-RVIN33HA.js";
import "./chunk-HJYNEF3P.js";
import "./chunk-H5BKU34A.js";
import "./chunk-5RGKNVFB.js";
import "./chunk-B7SSNVJV.js";
import "./chunk-SDA2ORHP.js";
import "./chunk-3KZ4QAVX.js";
import "./chunk-7ICKPVQF.js";
import "./chunk-ZMUO5JYW.js";
export {
  HANDLERS,
  runCommand
};
