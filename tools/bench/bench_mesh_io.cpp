// Load times of meshes and robot models (Google Benchmark):
//   build/bench/bench_mesh_io [--benchmark_filter=…]
// stl_impetus / stl_assimp, obj_impetus / obj_assimp: every STL (OBJ) file of ../shared/urdf-corpus
//   read once per iteration by Impetus's own reader (collision/mesh_io.cpp) and by assimp
//   (collision/mesh_assimp.cpp), unscaled: the measurement behind keeping STL and OBJ on our reader.
// corpus: every URDF of the corpus that loads (all but husky) read and converted (urdf_to_multibody,
//   meshes included, a fresh mesh cache per model), i.e. the whole corpus's load time.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "collision/mesh_assimp.hpp"
#include "collision/mesh_io.hpp"
#include "sim/urdf/urdf_parser.hpp"
#include "sim/urdf/urdf_to_multibody.hpp"

namespace {

using namespace impetus;
namespace fs = std::filesystem;

const std::string kCorpus = IMPETUS_SOURCE_DIR "/../shared/urdf-corpus";

std::vector<std::string> corpus_files(const std::string& extension) {
  std::vector<std::string> files;
  if (!fs::is_directory(kCorpus)) return files;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(kCorpus)) {
    std::string ext = e.path().extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (e.is_regular_file() && ext == extension) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void read_all(benchmark::State& state, const std::string& extension, bool assimp) {
  const std::vector<std::string> files = corpus_files(extension);
  if (files.empty()) state.SkipWithError("no corpus meshes (../shared/urdf-corpus)");
  std::size_t triangles = 0, bytes = 0;
  for (const std::string& f : files) bytes += fs::file_size(f);
  for (auto _ : state) {
    triangles = 0;
    for (const std::string& f : files) triangles += (assimp ? read_mesh_with_assimp(f, extension) : load_mesh(f)).triangles.size();
  }
  state.counters["files"] = static_cast<double>(files.size());
  state.counters["triangles"] = static_cast<double>(triangles);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

void stl_impetus(benchmark::State& s) { read_all(s, ".stl", false); }
void stl_assimp(benchmark::State& s) { read_all(s, ".stl", true); }
void obj_impetus(benchmark::State& s) { read_all(s, ".obj", false); }
void obj_assimp(benchmark::State& s) { read_all(s, ".obj", true); }
BENCHMARK(stl_impetus)->Unit(benchmark::kMillisecond);
BENCHMARK(stl_assimp)->Unit(benchmark::kMillisecond);
BENCHMARK(obj_impetus)->Unit(benchmark::kMillisecond);
BENCHMARK(obj_assimp)->Unit(benchmark::kMillisecond);

void corpus(benchmark::State& state) {
  const std::string manifest = kCorpus + "/MANIFEST.json";
  if (!fs::exists(manifest)) {
    state.SkipWithError("no corpus (../shared/urdf-corpus)");
    return;
  }
  std::ifstream in(manifest);
  const nlohmann::json m = nlohmann::json::parse(in);
  struct Entry { std::string urdf; std::vector<std::string> packages; };
  std::vector<Entry> entries;
  for (const nlohmann::json& model : m["models"]) {
    if (!model["urdfdom"]["parse_ok"].get<bool>()) continue;  // husky
    Entry e{kCorpus + "/" + model["urdf"].get<std::string>(), {}};
    for (const auto& [package, root] : model["package_roots"].items())
      e.packages.push_back((fs::path(kCorpus) / root.get<std::string>()).parent_path().string());
    entries.push_back(e);
  }
  std::size_t links = 0;
  for (auto _ : state) {
    links = 0;
    for (const Entry& e : entries) links += urdf_to_multibody(read_urdf(e.urdf, e.packages)).multibody.links.size();
  }
  state.counters["models"] = static_cast<double>(entries.size());
  state.counters["links"] = static_cast<double>(links);
}
BENCHMARK(corpus)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
