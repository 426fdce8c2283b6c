// The loopback HTTP server of `impetus view --serve` (view_server.hpp).
#include "tools/impetus/view_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>
#include <thread>
#include <vector>

#include "tools/impetus/view.hpp"

namespace impetus {

namespace fs = std::filesystem;

namespace {

constexpr int kPollMilliseconds = 200;         // how soon a stop request is noticed
constexpr int kMaxConnections = 32;            // a browser opens a handful; more is not a viewer
constexpr std::size_t kMaxRequestBytes = 16 << 10;   // request line and headers
constexpr int kReceiveTimeoutSeconds = 10;     // an idle (pre)connection frees its thread after this
constexpr int kSendTimeoutSeconds = 60;        // a stalled reader frees its thread after this
constexpr std::size_t kSendChunk = 1 << 20;
constexpr int kDrainPolls = 50;                // on stop, wait up to 50 × 200 ms for open responses

/// What every connection thread shares; kept alive by the threads themselves.
struct Context {
  fs::path run_dir;
  std::string page;
  int port = 0;
  std::atomic<int> active{0};
};

bool send_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

void send_head(int fd, int code, const char* reason, const char* type, std::uintmax_t length) {
  std::ostringstream h;
  h << "HTTP/1.1 " << code << ' ' << reason << "\r\nContent-Type: " << type << "\r\nContent-Length: " << length
    << "\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n";
  const std::string s = h.str();
  send_all(fd, s.data(), s.size());
}

void send_text(int fd, int code, const char* reason, bool head_only) {
  const std::string body = std::to_string(code) + ' ' + reason + '\n';
  send_head(fd, code, reason, "text/plain; charset=utf-8", body.size());
  if (!head_only) send_all(fd, body.data(), body.size());
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// Reads the request head (up to the blank line); empty on timeout, close or oversize.
std::string read_head(int fd) {
  std::string head;
  char buffer[4096];
  while (head.find("\r\n\r\n") == std::string::npos) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return {};
    head.append(buffer, static_cast<std::size_t>(n));
    if (head.size() > kMaxRequestBytes) return {};
  }
  return head;
}

void handle(int fd, const Context& context) {
  const timeval receive{kReceiveTimeoutSeconds, 0}, send{kSendTimeoutSeconds, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &receive, sizeof receive);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send, sizeof send);
  const std::string head = read_head(fd);
  if (head.empty()) return;
  std::istringstream lines(head);
  std::string method, target, version;
  lines >> method >> target >> version;
  const bool head_only = method == "HEAD";
  if (method != "GET" && !head_only) return send_text(fd, 405, "Method Not Allowed", false);

  // Host must name this server by its loopback address: refuses pages rebinding a name to 127.0.0.1.
  std::string host;
  for (std::string line; std::getline(lines, line);) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos || lower(line.substr(0, colon)) != "host") continue;
    host = line.substr(colon + 1);
    host.erase(0, host.find_first_not_of(" \t"));
    host.erase(host.find_last_not_of(" \t\r") + 1);
  }
  const std::string port = ":" + std::to_string(context.port);
  if (host != "127.0.0.1" + port && lower(host) != "localhost" + port) return send_text(fd, 403, "Forbidden", head_only);

  std::string path = target.substr(0, target.find_first_of("?#"));
  if (path == "/" || path == "/view.html") {
    send_head(fd, 200, "OK", "text/html; charset=utf-8", context.page.size());
    if (!head_only) send_all(fd, context.page.data(), context.page.size());
    return;
  }
  if (path == "/favicon.ico") return send_head(fd, 204, "No Content", "image/x-icon", 0);   // none: not an error
  const std::string name = path.size() > 1 ? path.substr(1) : "";
  if (std::find(kViewRunFiles.begin(), kViewRunFiles.end(), name) == kViewRunFiles.end())
    return send_text(fd, 404, "Not Found", head_only);
  const fs::path file = context.run_dir / name;
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(file, ec);
  std::ifstream in(file, std::ios::binary);
  if (ec || !in) return send_text(fd, 404, "Not Found", head_only);
  send_head(fd, 200, "OK", name.ends_with(".json") ? "application/json" : "text/csv; charset=utf-8", size);
  if (head_only) return;
  // Exactly `size` bytes, as announced, even if the file grows meanwhile (a run still writing).
  std::vector<char> buffer(kSendChunk);
  std::uintmax_t left = size;
  while (left > 0 && in) {
    in.read(buffer.data(), static_cast<std::streamsize>(std::min<std::uintmax_t>(left, buffer.size())));
    const auto n = static_cast<std::size_t>(in.gcount());
    if (n == 0 || !send_all(fd, buffer.data(), n)) return;
    left -= n;
  }
}

}  // namespace

int serve_view(const ViewServerOptions& options, const std::atomic<bool>& stop,
               const std::function<void(int port)>& on_listening, std::ostream& err) {
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) {
    err << "impetus view: cannot open a socket: " << std::strerror(errno) << '\n';
    return 1;
  }
  const int yes = 1;
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(options.port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address) < 0 || ::listen(listener, 64) < 0) {
    const int e = errno;
    err << "impetus view: cannot listen on 127.0.0.1:" << options.port << ": " << std::strerror(e)
        << (e == EADDRINUSE ? " (another server has it; choose another --port, or --port 0 for any free one)" : "")
        << '\n';
    ::close(listener);
    return 1;
  }
  socklen_t length = sizeof address;
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  auto context = std::make_shared<Context>();
  context->run_dir = options.run_dir;
  context->page = options.page;
  context->port = ntohs(address.sin_port);
  on_listening(context->port);

  while (!stop) {
    pollfd p{listener, POLLIN, 0};
    if (::poll(&p, 1, kPollMilliseconds) <= 0) continue;   // timeout, or EINTR from Ctrl-C: check stop
    const int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    if (context->active >= kMaxConnections) {
      ::close(client);
      continue;
    }
    ++context->active;
    std::thread([client, context] {
      handle(client, *context);
      ::shutdown(client, SHUT_WR);
      ::close(client);
      --context->active;
    }).detach();
  }
  ::close(listener);
  for (int i = 0; i < kDrainPolls && context->active > 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(kPollMilliseconds));
  return 0;
}

}  // namespace impetus
