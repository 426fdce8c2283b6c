// `impetus view` (tools/impetus/view.hpp): the page holds each run file exactly (read back through
// the JSON the page parses), no file content can close its <script> element, problems are
// explained, and the loopback server serves the page and the run's files and nothing else.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "tools/impetus/view.hpp"
#include "tools/impetus/view_server.hpp"

namespace impetus {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kTemplate = "<html><body>before\n<!--IMPETUS_DATA-->\nafter</body></html>\n";
constexpr int kServerStartSeconds = 10;     // the server binds at once; this only bounds a hang

/// Removes the folders fresh_dir made when the test program ends.
struct TempDirs {
  std::vector<fs::path> made;
  ~TempDirs() {
    std::error_code ec;
    for (const fs::path& dir : made) fs::remove_all(dir, ec);
  }
} temp_dirs;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("impetus-view-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  temp_dirs.made.push_back(dir);
  return dir;
}

void write(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary);
  out << text;
}

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Text of the <script id="impetus-file:NAME"> element of a page.
std::string element(const std::string& page, const std::string& name) {
  const std::string open = "<script type=\"application/json\" id=\"impetus-file:" + name + "\">";
  const std::size_t begin = page.find(open);
  if (begin == std::string::npos) return "<missing>";
  const std::size_t start = begin + open.size();
  return page.substr(start, page.find("</script>", start) - start);
}

/// A run folder whose files hold everything that could break an inlined page.
fs::path tricky_run(const std::string& name) {
  const fs::path dir = fresh_dir(name);
  write(dir / "trajectory.csv",
        "t,a</script><script>alert(1)</script>.px,b\"\\<!--.px\n0,1,2\r\n0.01,\t3,\x01" "4\n");
  write(dir / "contacts.csv", "t,a,b\n0,caf\xc3\xa9,ground\n");   // UTF-8 passes through
  write(dir / "summary.json", "{\"scene\": \"x</script>\", \"dt\": 0.001}");
  write(dir / "geometry.json", "{ not json");
  return dir;                                       // no stats.csv
}

TEST(ViewPage, JsonStringForHtmlReadsBackAndHasNoAngleBracket) {
  std::string all;
  for (int c = 1; c < 256; ++c) all += static_cast<char>(c);
  const std::string samples[] = {"", "plain", "</script>", "<!--<script>", "quote\" back\\slash", "\n\r\t\x01\x1f",
                                 "caf\xc3\xa9 \xe2\x80\xa8"};
  for (const std::string& text : samples) {
    std::ostringstream out;
    write_json_string_for_html(out, text);
    EXPECT_EQ(out.str().find('<'), std::string::npos) << out.str();
    EXPECT_EQ(json::parse(out.str()).get<std::string>(), text);
  }
  std::ostringstream out;
  write_json_string_for_html(out, all.substr(0, 127));    // ASCII: every escape path
  EXPECT_EQ(json::parse(out.str()).get<std::string>(), all.substr(0, 127));
}

TEST(ViewPage, InlinesEveryFileExactlyAndSafely) {
  const fs::path dir = tricky_run("inline");
  std::ostringstream page, err;
  ASSERT_TRUE(write_inline_page(kTemplate, dir, page, err)) << err.str();
  const std::string html = page.str();
  EXPECT_EQ(html.find("<html><body>before\n"), 0u);
  EXPECT_NE(html.find("\nafter</body></html>\n"), std::string::npos);
  EXPECT_EQ(html.find("<!--IMPETUS_DATA-->"), std::string::npos);
  // One closing tag per file and no other: file contents cannot end an element.
  std::size_t closers = 0;
  for (std::size_t at = html.find("</script"); at != std::string::npos; at = html.find("</script", at + 1)) ++closers;
  EXPECT_EQ(closers, kViewRunFiles.size());
  EXPECT_EQ(json::parse(element(html, "trajectory.csv")).get<std::string>(), read(dir / "trajectory.csv"));
  EXPECT_EQ(json::parse(element(html, "contacts.csv")).get<std::string>(), read(dir / "contacts.csv"));
  EXPECT_EQ(json::parse(element(html, "summary.json")), json::parse(read(dir / "summary.json")));
  EXPECT_TRUE(json::parse(element(html, "stats.csv")).is_null());       // missing
  EXPECT_TRUE(json::parse(element(html, "geometry.json")).is_null());   // invalid
  EXPECT_NE(err.str().find("stats.csv is missing"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("geometry.json is not valid JSON"), std::string::npos) << err.str();
  // control.csv is written only for scenes with controllers: absent, it is null and not warned about.
  EXPECT_TRUE(json::parse(element(html, "control.csv")).is_null());
  EXPECT_EQ(err.str().find("control.csv"), std::string::npos) << err.str();
}

TEST(ViewPage, LargeFileStreamsThroughInChunksUnchanged) {
  const fs::path dir = fresh_dir("large");
  std::mt19937 rng(3);
  std::string text = "t,x\n";
  while (text.size() < (std::size_t{3} << 20)) text += std::to_string(rng()) + ",<" + std::to_string(rng() % 97) + "\n";
  write(dir / "trajectory.csv", text);                      // over several 1 MiB chunks
  std::ostringstream page, err;
  ASSERT_TRUE(write_inline_page(kTemplate, dir, page, err));
  EXPECT_EQ(json::parse(element(page.str(), "trajectory.csv")).get<std::string>(), text);
}

TEST(ViewPage, RefusesAFolderWithoutTrajectory) {
  const fs::path dir = fresh_dir("empty");
  std::ostringstream page, err;
  EXPECT_FALSE(write_inline_page(kTemplate, dir, page, err));
  EXPECT_NE(err.str().find("trajectory.csv"), std::string::npos) << err.str();
  std::ostringstream out, err2;
  EXPECT_EQ(view_command((dir / "not-here").string(), false, 0, out, err2), 1);
  EXPECT_NE(err2.str().find("is not a folder"), std::string::npos) << err2.str();
}

TEST(ViewPage, RefusesATemplateWithoutMarker) {
  const fs::path dir = tricky_run("marker");
  std::ostringstream page, err;
  EXPECT_FALSE(write_inline_page("<html></html>", dir, page, err));
  EXPECT_NE(err.str().find("<!--IMPETUS_DATA-->"), std::string::npos) << err.str();
}

/// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(ViewCommand, WritesViewHtmlAndPrintsItsPath) {
  const fs::path dir = tricky_run("command");
  const fs::path template_file = dir / "template.html";
  write(template_file, kTemplate);
  ScopedEnv env("IMPETUS_VIEWER_TEMPLATE", template_file.string());
  std::ostringstream out, err;
  ASSERT_EQ(view_command(dir.string(), false, 0, out, err), 0) << err.str();
  EXPECT_EQ(out.str(), fs::absolute(dir / "view.html").lexically_normal().string() + "\n");
  EXPECT_TRUE(fs::is_regular_file(dir / "view.html"));
  EXPECT_FALSE(fs::exists(dir / "view.html.partial"));
  EXPECT_EQ(json::parse(element(read(dir / "view.html"), "trajectory.csv")).get<std::string>(), read(dir / "trajectory.csv"));
}

TEST(ViewCommand, MissingBundleSaysWhereItLookedAndWhatToDo) {
  const fs::path dir = tricky_run("nobundle");
  ScopedEnv env("IMPETUS_VIEWER_TEMPLATE", (dir / "no-such-template.html").string());
  std::ostringstream out, err;
  EXPECT_EQ(view_command(dir.string(), false, 0, out, err), 1);
  EXPECT_NE(err.str().find("viewer page"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find((dir / "no-such-template.html").string()), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("impetus_viewer"), std::string::npos) << err.str();   // the target to build
  // Without node and npm on PATH, the message says so and how to install them.
  ScopedEnv path("PATH", "/nonexistent");
  std::ostringstream out2, err2;
  EXPECT_EQ(view_command(dir.string(), false, 0, out2, err2), 1);
  EXPECT_NE(err2.str().find("apt-get install nodejs npm"), std::string::npos) << err2.str();
  EXPECT_TRUE(out2.str().empty());
}

TEST(ViewCommand, RejectsAPortOutOfRange) {
  const fs::path dir = tricky_run("port");
  std::ostringstream out, err;
  EXPECT_EQ(view_command(dir.string(), true, 70000, out, err), 1);
  EXPECT_NE(err.str().find("70000"), std::string::npos) << err.str();
}

/// One raw HTTP exchange with 127.0.0.1:port; returns the whole response.
std::string http(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return "<no connection>";
  }
  ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string response;
  char buffer[65536];
  for (ssize_t n; (n = ::recv(fd, buffer, sizeof buffer, 0)) > 0;) response.append(buffer, static_cast<std::size_t>(n));
  ::close(fd);
  return response;
}

std::string get(int port, const std::string& path, const std::string& host) {
  return http(port, "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
}

std::string body_of(const std::string& response) {
  const std::size_t at = response.find("\r\n\r\n");
  return at == std::string::npos ? "" : response.substr(at + 4);
}

TEST(ViewServer, ServesThePageAndTheRunFilesOnlyToLoopbackHosts) {
  const fs::path dir = tricky_run("server");
  write(dir.parent_path() / "impetus-view-test-secret.txt", "secret");
  ViewServerOptions options;
  options.port = 0;
  options.run_dir = dir;
  options.page = "<html>page</html>";
  std::atomic<bool> stop{false};
  std::atomic<int> port{0};
  std::ostringstream err;
  int status = -1;
  std::thread server([&] { status = serve_view(options, stop, [&](int p) { port = p; }, err); });
  for (int i = 0; i < 100 * kServerStartSeconds && port == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_GT(port.load(), 0) << err.str();
  const std::string host = "127.0.0.1:" + std::to_string(port.load());

  const std::string page = get(port, "/", host);
  EXPECT_EQ(page.rfind("HTTP/1.1 200", 0), 0u) << page;
  EXPECT_EQ(body_of(page), options.page);
  EXPECT_NE(page.find("text/html"), std::string::npos);
  const std::string csv = get(port, "/trajectory.csv?x=1", "localhost:" + std::to_string(port.load()));
  EXPECT_EQ(csv.rfind("HTTP/1.1 200", 0), 0u) << csv;
  EXPECT_EQ(body_of(csv), read(dir / "trajectory.csv"));
  EXPECT_EQ(get(port, "/stats.csv", host).rfind("HTTP/1.1 404", 0), 0u);                    // absent file
  EXPECT_EQ(get(port, "/../impetus-view-test-secret.txt", host).rfind("HTTP/1.1 404", 0), 0u);
  EXPECT_EQ(get(port, "/%2e%2e/impetus-view-test-secret.txt", host).rfind("HTTP/1.1 404", 0), 0u);
  EXPECT_EQ(get(port, "/view.html.partial", host).rfind("HTTP/1.1 404", 0), 0u);
  EXPECT_EQ(get(port, "/", "attacker.example:" + std::to_string(port.load())).rfind("HTTP/1.1 403", 0), 0u);
  EXPECT_EQ(get(port, "/", "").rfind("HTTP/1.1 403", 0), 0u);
  EXPECT_EQ(http(port, "POST / HTTP/1.1\r\nHost: " + host + "\r\n\r\n").rfind("HTTP/1.1 405", 0), 0u);
  const std::string head = http(port, "HEAD /summary.json HTTP/1.1\r\nHost: " + host + "\r\n\r\n");
  EXPECT_EQ(head.rfind("HTTP/1.1 200", 0), 0u);
  EXPECT_TRUE(body_of(head).empty());
  EXPECT_NE(head.find("Content-Length: " + std::to_string(fs::file_size(dir / "summary.json"))), std::string::npos);

  stop = true;
  server.join();
  EXPECT_EQ(status, 0);
  fs::remove(dir.parent_path() / "impetus-view-test-secret.txt");
}

TEST(ViewServer, PortInUseIsExplained) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(fd, 1), 0);
  socklen_t length = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ViewServerOptions options;
  options.port = ntohs(address.sin_port);
  std::atomic<bool> stop{true};
  std::ostringstream err;
  EXPECT_EQ(serve_view(options, stop, [](int) {}, err), 1);
  EXPECT_NE(err.str().find("--port"), std::string::npos) << err.str();
  ::close(fd);
}

}  // namespace
}  // namespace impetus
