// normalise.ts keeps only the facts of what kubectl printed: the server's address, uids, times,
// ages, resourceVersions, tokens, generated name suffixes and kubectl diff's temporary folders
// become placeholders, the `k8s.io` / `kubernetes.io/` spellings become Plinth's `platform.io`
// (both sides alike: Plinth answers a client in the group name it used), and the spaces that
// align columns (whose width follows an age or a name suffix) shrink to three.
import { renameAll } from '../../differential/rename';

const serverAddress = /https:\/\/127\.0\.0\.1:\d+/g;
const jwt = /\beyJ[\w-]+\.[\w-]+\.[\w-]+/g;
const uuid = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const rfc3339 = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g;
// rfc1123z is how describe prints a time (`Thu, 26 Nov 2026 04:34:00 +0000`).
const rfc1123z = /\b[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d [+-]\d{4}/g;
const resourceVersion = /(resourceVersion\\?"?:\s*\\?"|resourceVersion=|Resource Version: +)\d+/g;
// generatedSuffix is the five characters generateName appends (utilrand's alphabet, no vowels).
const generatedSuffix = /-[bcdfghjklmnpqrstvwxz2456789]{5}\b/g;
// age is a HumanDuration cell (`5s`, `3m2s`, `2d4h`), or `<invalid>` for a time a little ahead.
const age = /(?<![\w.:/-])(\d+[smhdy]){1,2}(?![\w.:/-])|<invalid>/g;
const diffFolder = /\/tmp\/(LIVE|MERGED)-\d+\//g;
// diffFileTime is the time diff -u prints of each file.
const diffFileTime = /\t\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ [+-]\d{4}$/gm;
const editCopy = /\/tmp\/kubectl-edit-\d+\.yaml/g;
const alignment = /(\S) {2,}/g;
// indentedCell is a table row whose first cells are empty: its indent is a column's width.
const indentedCell = /^ {20,}/;

// normaliseOutput normalises one stream; masks are patterns of the step whose matches become
// `<masked>`, drops patterns whose matches are removed.
export function normaliseOutput(text: string, masks: string[] = [], drops: string[] = []): string {
  let out = text;
  for (const drop of drops) out = out.replace(new RegExp(drop, 'g'), '');
  for (const mask of masks) out = out.replace(new RegExp(mask, 'g'), '<masked>');
  out = renameAll(out)
    .replace(serverAddress, 'https://<server>')
    .replace(jwt, '<jwt>')
    .replace(uuid, '<uid>')
    .replace(rfc3339, '<time>')
    .replace(rfc1123z, '<time>')
    .replace(resourceVersion, '$1<rv>')
    .replace(generatedSuffix, '-<suffix>')
    .replace(age, '<age>')
    .replace(diffFolder, '/tmp/$1-<n>/')
    .replace(diffFileTime, '\t<time>')
    .replace(editCopy, '/tmp/kubectl-edit-<n>.yaml');
  return out
    .split('\n')
    .map((line) => line.replace(indentedCell, '   ').replace(alignment, '$1   ').trimEnd())
    .join('\n');
}

// reflow joins the lines kubectl explain wrapped (each continuation at the indent of the line
// before it): renaming `kubernetes.io` to `platform.io` moves where a description wraps.
export function reflow(text: string): string {
  const out: string[] = [];
  const indentOf = (line: string) => /^ */.exec(line)?.[0].length ?? 0;
  for (const line of text.split('\n')) {
    const previous = out[out.length - 1];
    const continues = previous !== undefined && previous.trim() !== '' && line.trim() !== '' && indentOf(line) >= 4 && indentOf(line) === indentOf(previous) && !line.includes('\t') && !previous.includes('\t');
    if (continues) out[out.length - 1] = `${previous} ${line.trim()}`;
    else out.push(line);
  }
  return out.join('\n');
}
