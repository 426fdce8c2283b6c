// `impetus view`: builds the page of a run from the viewer template (view.hpp).
#include "tools/impetus/view.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "tools/impetus/view_server.hpp"

namespace impetus {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kCopyChunk = std::size_t{1} << 20;   // bytes read at a time from a CSV file

std::string human_size(std::uintmax_t bytes) {
  std::ostringstream s;
  s.precision(3);
  if (bytes >= (std::uintmax_t{1} << 20)) s << static_cast<double>(bytes) / (1 << 20) << " MiB";
  else s << static_cast<double>(bytes) / 1024 << " KiB";
  return s.str();
}

fs::path executable_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : self.parent_path();
}

/// An executable on PATH, or empty.
fs::path find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A JSON file of the run, re-serialised for the page; "null" when absent or invalid (said on err).
std::string json_for_page(const fs::path& file, std::ostream& err) {
  if (!fs::exists(file)) return "null";
  try {
    const nlohmann::json value = nlohmann::json::parse(read_file(file));
    std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    // '<' only occurs inside JSON strings, where \u003c is the same character.
    std::string safe;
    safe.reserve(text.size());
    for (char c : text) {
      if (c == '<') safe += "\\u003c";
      else safe += c;
    }
    return safe;
  } catch (const nlohmann::json::exception& e) {
    err << "impetus view: warning: " << file.string() << " is not valid JSON (" << e.what()
        << "); the page shows the run without it\n";
    return "null";
  }
}

std::atomic<bool> g_stop_serving{false};

extern "C" void on_stop_signal(int) { g_stop_serving = true; }

}  // namespace

namespace {

/// The inside of a JSON string literal for text (see write_json_string_for_html).
void write_json_escaped_for_html(std::ostream& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::size_t run = 0;                                  // start of the pending unescaped span
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const bool plain = c >= 0x20 && c != '"' && c != '\\' && c != '<';
    if (plain) continue;
    out.write(text.data() + run, static_cast<std::streamsize>(i - run));
    run = i + 1;
    switch (c) {
      case '"': out << "\\\""; break;
      case '\\': out << "\\\\"; break;
      case '\n': out << "\\n"; break;
      case '\r': out << "\\r"; break;
      case '\t': out << "\\t"; break;
      default: out << "\\u00" << kHex[c >> 4] << kHex[c & 15];   // other controls and '<'
    }
  }
  out.write(text.data() + run, static_cast<std::streamsize>(text.size() - run));
}

}  // namespace

void write_json_string_for_html(std::ostream& out, std::string_view text) {
  out.put('"');
  write_json_escaped_for_html(out, text);
  out.put('"');
}

std::vector<fs::path> viewer_template_candidates() {
  std::vector<fs::path> paths;
  if (const char* env = std::getenv("IMPETUS_VIEWER_TEMPLATE"); env && *env) paths.emplace_back(env);
#ifdef IMPETUS_VIEWER_TEMPLATE_PATH
  paths.emplace_back(IMPETUS_VIEWER_TEMPLATE_PATH);
#endif
  if (const fs::path dir = executable_dir(); !dir.empty()) {
    paths.push_back(dir / "tools" / "viewer" / "dist" / "viewer.html");
    paths.push_back(dir / "viewer" / "viewer.html");
  }
  return paths;
}

std::string viewer_missing_message(const std::vector<fs::path>& searched) {
  std::ostringstream m;
  m << "impetus view: the viewer page (viewer.html, built from tools/viewer with Node.js) is missing.\n"
    << "  looked for:";
  for (const fs::path& p : searched) m << "\n    " << p.string();
  const fs::path node = find_on_path("node"), npm = find_on_path("npm");
  m << "\n  ";
  if (node.empty() || npm.empty()) {
    m << "Node.js (18 or later) and npm are needed to build it, and "
      << (node.empty() && npm.empty() ? "neither node nor npm" : node.empty() ? "node" : "npm")
      << " is on PATH.\n  Install them (Debian: apt-get install nodejs npm), then reconfigure and rebuild"
      << " (tools/run.sh does both), or build target impetus_viewer.";
  } else {
    m << "node (" << node.string() << ") and npm (" << npm.string() << ") are on PATH: the build has not made"
      << " the bundle yet.\n  Reconfigure if Node.js was installed after the first cmake run, then build target"
      << " impetus_viewer (it runs `npm ci`, which needs the npm registry once).";
#ifdef IMPETUS_VIEWER_NODE
    if (std::string(IMPETUS_VIEWER_NODE).empty()) m << "\n  (This build was configured without Node.js.)";
#endif
  }
  return m.str();
}

bool write_inline_page(const std::string& template_html, const fs::path& run_dir, std::ostream& page,
                       std::ostream& err) {
  const std::size_t marker = template_html.find(kViewDataMarker);
  if (marker == std::string::npos) {
    err << "impetus view: the viewer template has no " << kViewDataMarker << " marker (a bundle from another"
        << " version?); rebuild target impetus_viewer\n";
    return false;
  }
  if (!fs::is_regular_file(run_dir / "trajectory.csv")) {
    err << "impetus view: " << (run_dir / "trajectory.csv").string()
        << " is missing: is this a run folder written by `impetus run`?\n";
    return false;
  }
  page.write(template_html.data(), static_cast<std::streamsize>(marker));
  std::vector<char> buffer(kCopyChunk);
  for (const std::string& name : kViewRunFiles) {
    const fs::path file = run_dir / name;
    page << "<script type=\"application/json\" id=\"impetus-file:" << name << "\">";
    if (name.ends_with(".json")) {
      page << json_for_page(file, err);
    } else if (!fs::exists(file)) {
      if (!optional_view_file(name))
        err << "impetus view: warning: " << file.string() << " is missing; the page shows the run without it\n";
      page << "null";
    } else {
      // Streamed through the escaper chunk by chunk: a CSV file is never held whole here.
      std::ifstream in(file, std::ios::binary);
      page.put('"');
      while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        write_json_escaped_for_html(page, std::string_view(buffer.data(), static_cast<std::size_t>(in.gcount())));
      }
      page.put('"');
    }
    page << "</script>\n";
  }
  const std::size_t rest = marker + std::char_traits<char>::length(kViewDataMarker);
  page.write(template_html.data() + rest, static_cast<std::streamsize>(template_html.size() - rest));
  return static_cast<bool>(page);
}

int view_command(const std::string& run_dir_text, bool serve, int port, std::ostream& out, std::ostream& err) {
  const fs::path run_dir(run_dir_text);
  if (!fs::is_directory(run_dir)) {
    err << "impetus view: " << run_dir_text << " is not a folder (give the --out folder of `impetus run`)\n";
    return 1;
  }
  if (serve && (port < 0 || port > 65535)) {
    err << "impetus view: --port " << port << " is not a TCP port (0–65535; 0 picks a free one)\n";
    return 1;
  }
  const std::vector<fs::path> candidates = viewer_template_candidates();
  fs::path template_file;
  for (const fs::path& p : candidates) {
    if (fs::is_regular_file(p)) { template_file = p; break; }
  }
  if (template_file.empty()) {
    err << viewer_missing_message(candidates) << '\n';
    return 1;
  }
  const std::string template_html = read_file(template_file);

  if (serve) {
    const std::size_t marker = template_html.find(kViewDataMarker);
    if (marker == std::string::npos || !fs::is_regular_file(run_dir / "trajectory.csv")) {
      std::ostringstream sink;                          // reuse the checks and messages of the inline page
      write_inline_page(template_html, run_dir, sink, err);
      return 1;
    }
    ViewServerOptions options;
    options.port = port;
    options.run_dir = run_dir;
    options.page = template_html;
    options.page.erase(marker, std::char_traits<char>::length(kViewDataMarker));
    g_stop_serving = false;
    struct sigaction action = {}, old_int = {}, old_term = {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int);
    sigaction(SIGTERM, &action, &old_term);
    const int status = serve_view(options, g_stop_serving, [&](int actual) {
      out << "serving " << fs::absolute(run_dir).lexically_normal().string() << " at http://127.0.0.1:" << actual
          << "/ (Ctrl-C stops)" << std::endl;
    }, err);
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    return status;
  }

  std::uintmax_t bytes = 0;
  for (const std::string& name : kViewRunFiles) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(run_dir / name, ec);
    if (!ec) bytes += size;
  }
  if (bytes > kMaxInlineBytes) {
    err << "impetus view: this run's files hold " << human_size(bytes) << ", more than a self-contained page can"
        << " carry (" << human_size(kMaxInlineBytes) << ": a browser must hold each file as one string).\n"
        << "  Serve it instead: impetus view " << run_dir_text << " --serve  (or record less often: --record-dt)\n";
    return 1;
  }
  const fs::path page_file = run_dir / "view.html";
  const fs::path partial = run_dir / "view.html.partial";
  {
    std::ofstream page(partial, std::ios::binary | std::ios::trunc);
    if (!page) {
      err << "impetus view: cannot write " << partial.string() << '\n';
      return 1;
    }
    if (!write_inline_page(template_html, run_dir, page, err)) {
      page.close();
      fs::remove(partial);
      return 1;
    }
    page.close();
    if (!page) {
      err << "impetus view: writing " << partial.string() << " failed (disk full?)\n";
      fs::remove(partial);
      return 1;
    }
  }
  std::error_code ec;
  fs::rename(partial, page_file, ec);
  if (ec) {
    err << "impetus view: cannot rename " << partial.string() << " to view.html: " << ec.message() << '\n';
    return 1;
  }
  out << fs::absolute(page_file).lexically_normal().string() << '\n';
  return 0;
}

}  // namespace impetus
