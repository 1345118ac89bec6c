import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CompiledDecisionTable } from '../policy/compile.js';
import type { Deployment } from '../policy/deployment.js';
import { fileExtension } from '../policy/variants.js';
import { scenarioKeyLocation } from '../scenario/load.js';
import type { RecordedContent } from '../scenario/schema.js';
import { readAccessLog } from '../recorded/realTraffic/accessLogReader.js';
import { readHar } from '../recorded/realTraffic/harReader.js';
import { loadRecordedTraffic, type RecordedTraffic } from '../recorded/realTraffic/trafficCatalogue.js';
import { MissingFileError, TraceError, UnopenableFileError } from '../recorded/traces/traceError.js';
import { echoValue } from '../userError.js';
import { addClassCaching, type ContentCaching } from './contentCaching.js';

/** Classes a run tells apart (class ids are bytes on the request path). */
const MAX_DECISION_CLASSES = 255;

/**
 * Reads the scenario's recording (content.recorded): a HAR export or an access log, its
 * path relative to the scenario file. Errors name the file and the entry or line.
 */
export async function loadScenarioRecording(recorded: RecordedContent, scenarioFile: string): Promise<RecordedTraffic> {
  const file = resolve(dirname(scenarioFile), recorded.file);
  const options = { skipBad: recorded.skipBad };
  // A path that names no file is the scenario's mistake, at its key; a file's own faults are located in that file.
  const atKey = (problem: string): TraceError => {
    const { line, column } = scenarioKeyLocation(scenarioFile, ['content', 'recorded', 'file']);
    return new TraceError(`${scenarioFile}:${line}:${column}: \`content.recorded.file\`: ${problem}. The path is relative to the scenario file.`, file);
  };
  if (existsSync(file) && statSync(file).isDirectory()) throw atKey(`${file} is a folder, not a HAR export or an access log`);
  try {
    return await loadRecordedTraffic(recorded.format === 'har' ? readHar(file, options) : readAccessLog(file, options));
  } catch (error) {
    if (error instanceof MissingFileError) throw atKey(`file not found: ${error.file}${error.hint}`);
    if (error instanceof UnopenableFileError) throw atKey(`cannot open ${echoValue(error.file)}: ${error.reason}`);
    throw error;
  }
}

/**
 * The policy engine over recorded responses: one decision per response profile (status,
 * path extension, headers as recorded) and layer, then profiles grouped by what the engine
 * decided for every layer, so that responses differing only in `Date` or `ETag` share a
 * class. An access log records no response headers: the deployment kind's defaults decide
 * then (spec 4.1, 4.2 by extension).
 *
 * Each class is reported under its first object's URL and headers, with the count of
 * objects and profiles it holds.
 */
export function compileRecordedCaching(traffic: RecordedTraffic, deployment: Deployment): { caching: ContentCaching; classOf: Uint8Array } {
  const all = new CompiledDecisionTable(deployment);
  const profileIds = traffic.profiles.map((profile) => all.add({ url: profile.url, status: profile.status, headers: profile.responseHeaders }));
  const classOfSignature = new Map<string, number>();
  const classOfProfile = profileIds.map((id) => {
    const signature = decisionSignature(all, id);
    let c = classOfSignature.get(signature);
    if (c === undefined) {
      c = classOfSignature.size;
      classOfSignature.set(signature, c);
    }
    return c;
  });
  if (classOfSignature.size > MAX_DECISION_CLASSES) {
    throw new TraceError(
      `${traffic.file}: its responses get ${classOfSignature.size} different caching decisions; cdnsim tells at most ${MAX_DECISION_CLASSES} apart. ` +
        'Heuristic lifetimes (10 % of Date − Last-Modified) give each response its own; trim the file, or describe the site with content.classes.',
      traffic.file,
    );
  }
  const classOf = new Uint8Array(traffic.urls.length);
  const objectsPerClass = new Array<number>(classOfSignature.size).fill(0);
  const profilesPerClass = new Array<number>(classOfSignature.size).fill(0);
  const firstProfile = new Array<number>(classOfSignature.size).fill(-1);
  classOfProfile.forEach((c, profile) => {
    profilesPerClass[c]++;
    if (firstProfile[c] < 0) firstProfile[c] = profile;
  });
  for (let id = 0; id < traffic.urls.length; id++) {
    classOf[id] = classOfProfile[traffic.profileOf[id]];
    objectsPerClass[classOf[id]]++;
  }

  const table = new CompiledDecisionTable(deployment);
  const recordedFrom = traffic.file.split(/[\\/]/).pop();
  const classes = firstProfile.map((p, c) => {
    const profile = traffic.profiles[p];
    const extension = fileExtension(profile.url);
    const source = {
      name: `${profile.status} ${extension === '' ? 'no extension' : `.${extension}`} #${c + 1}`,
      url: profile.url,
      responseHeaders: Object.fromEntries(profile.responseHeaders.filter(([name]) => CACHING_FIELDS.has(name))),
      headerSource: `recorded in ${recordedFrom}: ${objectsPerClass[c]} objects, ${profilesPerClass[c]} response profiles`,
    };
    return addClassCaching(table, deployment, source, profile.status, profile.responseHeaders);
  });
  return { caching: { deployment, table, classes }, classOf };
}

/** The response fields a class is reported with: those the engine reads for freshness and storing. */
const CACHING_FIELDS = new Set(['cache-control', 'cdn-cache-control', 'expires', 'pragma', 'content-type', 'set-cookie', 'vary', 'last-modified', 'age', 'date']);

/** What the engine decided for every layer, as a string key (equal decisions, equal keys). */
function decisionSignature(table: CompiledDecisionTable, id: number): string {
  const parts: number[] = [];
  for (let layer = 0; layer < 3; layer++) {
    parts.push(table.flagsOf(id, layer), table.ttlMsOf(id, layer), table.staleWhileRevalidateMsOf(id, layer), table.staleIfErrorMsOf(id, layer), table.staleIfUnreachableMsOf(id, layer));
  }
  return parts.join(',');
}
