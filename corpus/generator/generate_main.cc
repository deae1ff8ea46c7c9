// tfa-generate: writes the synthetic model catalogue (or one model of it) as .tflite files.
//   tfa-generate --out DIR [--name NAME]... [--random NODES --seed SEED]
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "corpus/generator/random_model.h"
#include "corpus/generator/shape_check.h"
#include "corpus/generator/synthetic_models.h"
#include "corpus/generator/tflite_writer.h"

namespace {

bool WriteFile(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Writes tflite-analyze's synthetic models as .tflite files."};
  std::string out_dir;
  std::vector<std::string> names;
  int random_nodes = 0;
  uint64_t seed = 1;
  app.add_option("--out", out_dir, "Directory to write NAME.tflite files into")->required();
  app.add_option("--name", names, "Catalogue model to write (repeatable; default: all)");
  app.add_option("--random", random_nodes, "Also write random_SEED.tflite with this many nodes");
  app.add_option("--seed", seed, "Seed of the random model");
  bool list = false;
  app.add_flag("--list", list, "Print the catalogue names and exit");
  CLI11_PARSE(app, argc, argv);

  if (list) {
    for (const std::string& name : tfa::SyntheticModelNames()) std::printf("%s\n", name.c_str());
    return 0;
  }
  if (names.empty() && random_nodes == 0) names = tfa::SyntheticModelNames();

  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    std::fprintf(stderr, "tfa-generate: %s: %s\n", out_dir.c_str(), ec.message().c_str());
    return 2;
  }
  std::vector<tfa::SyntheticModel> models;
  for (const std::string& name : names) {
    auto model = tfa::BuildSyntheticModel(name);
    if (!model.ok()) {
      std::fprintf(stderr, "tfa-generate: %s\n", model.status().message().c_str());
      return 2;
    }
    models.push_back(std::move(*model));
  }
  if (random_nodes > 0) models.push_back(tfa::BuildRandomModel(seed, random_nodes));
  for (const tfa::SyntheticModel& m : models) {
    const std::filesystem::path path = std::filesystem::path(out_dir) / m.model.path;
    if (tfa::Status st = tfa::CheckShapes(m.model); !st.ok()) {
      std::fprintf(stderr, "tfa-generate: %s: %s\n", m.model.path.c_str(), st.message().c_str());
      return 2;
    }
    if (!WriteFile(path, tfa::WriteTflite(m.model, m.data))) {
      std::fprintf(stderr, "tfa-generate: %s: write failed\n", path.c_str());
      return 2;
    }
    std::printf("%s\n", path.c_str());
  }
  return 0;
}
