// Where the run's files come from: inlined into the page (`impetus view`), or fetched from the
// server of `impetus view --serve`.
//
// Inlined: each file is a <script type="application/json" id="impetus-file:NAME"> whose content is
// one JSON value: a string holding the file's text (CSV), or the parsed JSON file; a file absent
// from the run folder is `null`. Served: GET ./NAME, streamed so that CSV files larger than a
// JavaScript string still load.

const FILE_ELEMENT_PREFIX = 'impetus-file:';

export function isInlined(doc) {
  return doc.querySelector(`script[id^="${FILE_ELEMENT_PREFIX}"]`) !== null;
}

/// Text of a file, chunk by chunk, to consumer.push(chunk); returns false when the file is absent.
/// onProgress(fraction) is called while a served file streams in (when its size is known).
export async function streamText(doc, name, consumer, onProgress) {
  if (isInlined(doc)) {
    const element = doc.getElementById(FILE_ELEMENT_PREFIX + name);
    if (!element) return false;
    const value = JSON.parse(element.textContent);
    if (value === null) return false;
    consumer.push(typeof value === 'string' ? value : JSON.stringify(value));
    consumer.finish();
    return true;
  }
  const response = await fetch(name);
  if (response.status === 404) return false;
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  const total = Number(response.headers.get('Content-Length')) || 0;
  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    consumer.push(decoder.decode(value, { stream: true }));
    if (onProgress && total > 0) onProgress(received / total);
  }
  const tail = decoder.decode();
  if (tail.length) consumer.push(tail);
  consumer.finish();
  return true;
}

/// A JSON file of the run, parsed, or null when absent.
export async function readJson(doc, name) {
  if (isInlined(doc)) {
    const element = doc.getElementById(FILE_ELEMENT_PREFIX + name);
    return element ? JSON.parse(element.textContent) : null;
  }
  const response = await fetch(name);
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return response.json();
}
