// The loopback HTTP server of `impetus view --serve` (view_server.hpp), on cpp-httplib.
#include "tools/impetus/view_server.hpp"

#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "tools/impetus/view.hpp"

namespace impetus {

namespace fs = std::filesystem;

namespace {

constexpr int kPollMilliseconds = 200;         // how soon a stop request is noticed
constexpr int kThreads = 8;                    // a browser opens a handful of connections at once
constexpr std::size_t kMaxBodyBytes = 16 << 10;   // GET and HEAD carry no body
constexpr int kReceiveTimeoutSeconds = 10;     // an idle (pre)connection frees its thread after this
constexpr int kSendTimeoutSeconds = 60;        // a stalled reader frees its thread after this
constexpr std::size_t kSendChunk = 1 << 20;

void text(httplib::Response& res, int code, const char* reason) {
  res.status = code;
  res.set_content(std::to_string(code) + ' ' + reason + '\n', "text/plain; charset=utf-8");
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// `file` in chunks, exactly `size` bytes as announced, even if the file grows meanwhile (a run still writing).
void serve_file(httplib::Response& res, const fs::path& file, std::uintmax_t size, const char* type) {
  auto in = std::make_shared<std::ifstream>(file, std::ios::binary);
  res.set_content_provider(static_cast<std::size_t>(size), type,
                           [in](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                             std::vector<char> buffer(std::min(length, kSendChunk));
                             in->seekg(static_cast<std::streamoff>(offset));
                             in->read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
                             const auto n = static_cast<std::size_t>(in->gcount());
                             return n > 0 && sink.write(buffer.data(), n);   // a shrunk file ends the response
                           });
}

}  // namespace

int serve_view(const ViewServerOptions& options, const std::atomic<bool>& stop,
               const std::function<void(int port)>& on_listening, std::ostream& err) {
  httplib::Server server;
  // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, which would let a second server share the port.
  server.set_socket_options([](socket_t sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  server.new_task_queue = [] { return new httplib::ThreadPool(kThreads); };
  server.set_keep_alive_max_count(1);   // one request per connection (Connection: close)
  server.set_read_timeout(kReceiveTimeoutSeconds);
  server.set_write_timeout(kSendTimeoutSeconds);
  server.set_payload_max_length(kMaxBodyBytes);
  server.set_default_headers({{"Cache-Control", "no-store"}, {"X-Content-Type-Options", "nosniff"}});

  // Host must name this server by its loopback address: refuses pages rebinding a name to 127.0.0.1.
  int port = options.port;
  server.set_pre_routing_handler([&port](const httplib::Request& req, httplib::Response& res) {
    if (req.method != "GET" && req.method != "HEAD") {
      text(res, 405, "Method Not Allowed");
      return httplib::Server::HandlerResponse::Handled;
    }
    const std::string host = req.get_header_value("Host"), suffix = ":" + std::to_string(port);
    if (host != "127.0.0.1" + suffix && lower(host) != "localhost" + suffix) {
      text(res, 403, "Forbidden");
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  // GET (and HEAD, which httplib answers from the GET handler without the body).
  server.Get(".*", [&options](const httplib::Request& req, httplib::Response& res) {
    const std::string& path = req.path;   // decoded, without the query
    if (path == "/" || path == "/view.html") return res.set_content(options.page, "text/html; charset=utf-8");
    if (path == "/favicon.ico") {   // none: not an error
      res.status = 204;
      return;
    }
    const std::string name = path.size() > 1 ? path.substr(1) : "";
    if (std::find(kViewRunFiles.begin(), kViewRunFiles.end(), name) == kViewRunFiles.end())
      return text(res, 404, "Not Found");
    const fs::path file = options.run_dir / name;
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(file, ec);
    if (ec || !std::ifstream(file, std::ios::binary)) return text(res, 404, "Not Found");
    serve_file(res, file, size, name.ends_with(".json") ? "application/json" : "text/csv; charset=utf-8");
  });

  errno = 0;
  const bool bound = options.port == 0 ? (port = server.bind_to_any_port("127.0.0.1")) > 0
                                       : server.bind_to_port("127.0.0.1", options.port);
  if (!bound) {
    const int e = errno;
    err << "impetus view: cannot listen on 127.0.0.1:" << options.port << ": "
        << (e != 0 ? std::strerror(e) : "the socket cannot be opened")
        << (e == EADDRINUSE ? " (another server has it; choose another --port, or --port 0 for any free one)" : "")
        << '\n';
    return 1;
  }
  on_listening(port);
  std::atomic<bool> ended{false};
  std::thread listening([&server, &ended] {
    server.listen_after_bind();
    ended = true;
  });
  while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(kPollMilliseconds));
  // stop() before the listener runs would be lost, and the listener would never return.
  while (!server.is_running() && !ended) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  server.stop();          // closes the listener; open responses finish (within kSendTimeoutSeconds)
  listening.join();
  return 0;
}

}  // namespace impetus
