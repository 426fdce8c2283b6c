// Incremental CSV reading for the run folder's tables.
//
// The files are written by sim/'s recorder: a header line, then one line per row, fields separated
// by commas. Numeric tables (trajectory.csv, stats.csv) are large (a 1000-body run has 13 000
// columns per row), so rows are parsed into one reused Float64Array and handed to a callback that
// copies what it keeps: the whole table is never held as numbers, nor as split strings.
// The same reader takes a whole string (inlined page) or a stream of chunks (--serve), so a run
// larger than a JavaScript string (2^29 − 24 characters in V8) can still be read when served.

/// Splits text arriving in chunks into complete lines ("\n" or "\r\n"), calling onLine(line).
export class LineSplitter {
  constructor(onLine) {
    this.onLine = onLine;
    this.rest = '';
  }

  push(chunk) {
    let text = this.rest.length ? this.rest + chunk : chunk;
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      if (end < 0) break;
      const stop = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
      this.onLine(text.substring(start, stop));
      start = end + 1;
    }
    this.rest = start < text.length ? text.substring(start) : '';
  }

  finish() {
    if (this.rest.length) {
      const line = this.rest.endsWith('\r') ? this.rest.slice(0, -1) : this.rest;
      this.rest = '';
      this.onLine(line);
    }
  }
}

/// A number as the recorder writes it; also reads "nan", "inf", "-inf" of a diverged run.
export function parseNumber(text) {
  const x = Number(text);
  if (!Number.isNaN(x) || text.length === 0) return text.length === 0 ? NaN : x;
  const s = text.trim().toLowerCase();
  if (s === 'inf' || s === '+inf' || s === 'infinity') return Infinity;
  if (s === '-inf' || s === '-infinity') return -Infinity;
  return NaN;
}

/// Fields of one line. Quoted fields (RFC 4180) are honoured, though the recorder writes none.
export function splitFields(line) {
  if (line.indexOf('"') < 0) return line.split(',');
  const fields = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; ++i) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { field += '"'; ++i; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { fields.push(field); field = ''; }
    else field += c;
  }
  fields.push(field);
  return fields;
}

/// Reads a numeric table: onHeader(columns) once, then onRow(values, rowIndex) per data line, where
/// values is a Float64Array reused between rows. Lines with the wrong number of fields are counted
/// in badRows and skipped (a run killed mid-write leaves a truncated last line).
export class NumericTableReader {
  constructor({ onHeader, onRow }) {
    this.onHeader = onHeader;
    this.onRow = onRow;
    this.columns = null;
    this.values = null;
    this.rows = 0;
    this.badRows = 0;
    this.splitter = new LineSplitter((line) => this.line(line));
  }

  push(chunk) { this.splitter.push(chunk); }
  finish() { this.splitter.finish(); }

  line(line) {
    if (line.length === 0) return;
    if (this.columns === null) {
      this.columns = splitFields(line).map((c) => c.trim());
      this.values = new Float64Array(this.columns.length);
      this.onHeader(this.columns);
      return;
    }
    const n = this.columns.length;
    const values = this.values;
    let start = 0;
    let k = 0;
    for (;;) {
      let end = line.indexOf(',', start);
      const last = end < 0;
      if (last) end = line.length;
      if (k === n) { k = n + 1; break; }              // more fields than columns
      values[k++] = parseNumber(line.substring(start, end));
      if (last) break;
      start = end + 1;
    }
    if (k !== n) { ++this.badRows; return; }
    this.onRow(values, this.rows++);
  }
}

/// A Float64Array (or Float32Array) that grows by doubling; view() is the filled part.
export class GrowableArray {
  constructor(type = Float64Array, capacity = 1024) {
    this.type = type;
    this.data = new type(capacity);
    this.length = 0;
  }

  reserve(n) {
    if (n <= this.data.length) return;
    let capacity = this.data.length;
    while (capacity < n) capacity *= 2;
    const data = new this.type(capacity);
    data.set(this.data.subarray(0, this.length));
    this.data = data;
  }

  push(x) {
    if (this.length === this.data.length) this.reserve(this.length + 1);
    this.data[this.length++] = x;
  }

  view() { return this.data.subarray(0, this.length); }
}
