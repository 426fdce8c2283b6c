// The loopback HTTP server of `impetus view --serve`.
//
// Serves GET/HEAD of "/" (the page, held in memory) and of the run's files by their names
// (kViewRunFiles) from the run folder, and /favicon.ico as 204 (no icon; browsers ask for one).
// Every other path is 404, so nothing else on disk is reachable. It listens on 127.0.0.1 only,
// and answers only requests whose Host header names the loopback address or localhost (a web
// page elsewhere cannot reach it through DNS rebinding).
// cpp-httplib serves it from a small thread pool; each response closes its connection (HTTP/1.1,
// Connection: close).
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>

namespace impetus {

struct ViewServerOptions {
  int port = 0;                              // 0: a free port chosen by the system
  std::filesystem::path run_dir;
  std::string page;                          // the HTML served at "/"
};

/// Binds 127.0.0.1:port and serves until `stop` becomes true (checked every kPollMilliseconds).
/// on_listening(port) is called once bound, with the actual port. Returns 0 when stopped, 1 when
/// the socket cannot be opened (reason on err).
int serve_view(const ViewServerOptions& options, const std::atomic<bool>& stop,
               const std::function<void(int port)>& on_listening, std::ostream& err);

}  // namespace impetus
