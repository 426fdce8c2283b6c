// `impetus view RUN_DIR [--serve] [--port N]`: the browser viewer of a run folder.
//
// The page is the viewer bundle that the build makes with Node.js (tools/viewer: three.js and the
// viewer's code bundled by esbuild into one HTML template, BUILD/tools/viewer/dist/viewer.html)
// with the run's files put where the template says <!--IMPETUS_DATA-->:
//
//   view.html     the template, and per file of the run one
//                 <script type="application/json" id="impetus-file:NAME">VALUE</script>
//                 where VALUE is the CSV text as a JSON string, the JSON file re-serialised, or null
//                 when the file is absent. Every '<' is written \u003c, so no file content can end
//                 the element. The page needs no network and opens from file://.
//   --serve       the template without data, served on 127.0.0.1:PORT with the run's files beside
//                 it; the page fetches and parses them as streams.
//
// Inlining stops at kMaxInlineBytes of run files: the page must hold each CSV file as one
// JavaScript string, and V8 (Chromium, Node) caps a string at 2^29 − 24 characters (≈ 512 MiB);
// the browser also keeps the page's text, those strings and the parsed arrays at once. Past that
// size `--serve` is the way: fetched files are parsed chunk by chunk and never become one string.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace impetus {

/// The files of a run folder the page reads, in the order they are inlined.
inline const std::vector<std::string> kViewRunFiles = {"summary.json", "geometry.json", "trajectory.csv",
                                                       "contacts.csv", "stats.csv",  "control.csv"};
/// Files only some runs have (control.csv: scenes with controllers): absent, they are null without a warning.
inline bool optional_view_file(const std::string& name) { return name == "control.csv"; }

/// Largest total size of run files inlined into view.html (256 MiB: half of V8's longest string,
/// leaving room for the JSON escapes and the copies the browser makes while parsing).
constexpr std::uintmax_t kMaxInlineBytes = std::uintmax_t{256} << 20;

/// Port of --serve when none is given.
constexpr int kViewDefaultPort = 8765;

/// The marker in the template where the run's data goes.
inline constexpr const char* kViewDataMarker = "<!--IMPETUS_DATA-->";

/// Runs `impetus view`: writes RUN_DIR/view.html and prints its path (0), or with serve=true serves
/// the run on 127.0.0.1:port until interrupted (SIGINT/SIGTERM; port 0 picks a free port). Any
/// problem (no trajectory.csv, no viewer bundle, port taken, ...) is explained on err; returns 1.
int view_command(const std::string& run_dir, bool serve, int port, std::ostream& out, std::ostream& err);

/// Where the viewer template was looked for, in order: $IMPETUS_VIEWER_TEMPLATE, the path this
/// build compiled in, then tools/viewer/dist/viewer.html and viewer/viewer.html next to the
/// executable (a build tree moved or installed as a whole).
std::vector<std::filesystem::path> viewer_template_candidates();

/// Why there is no viewer template, and what to do about it (Node.js found or not, which target).
std::string viewer_missing_message(const std::vector<std::filesystem::path>& searched);

/// Writes `text` as a JSON string literal safe inside an HTML <script> element: quotes, backslashes
/// and control characters escaped as JSON requires, '<' as \u003c. Bytes ≥ 0x80 pass unchanged.
void write_json_string_for_html(std::ostream& out, std::string_view text);

/// The page with the run's files inlined; false (and why on err) when trajectory.csv is missing.
/// Missing optional files and invalid JSON files are reported on err and inlined as null.
bool write_inline_page(const std::string& template_html, const std::filesystem::path& run_dir,
                       std::ostream& page, std::ostream& err);

}  // namespace impetus
