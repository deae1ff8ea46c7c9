#include "tests/support/test_paths.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tfa::testing {

std::string CorpusModelPath(const std::string& name) {
  const std::string path = std::string(TFA_CORPUS_DIR) + "/" + name + ".tflite";
  if (!std::filesystem::exists(path)) {
    ADD_FAILURE() << path << " is missing: run `python3 corpus/fetch.py` (setup.sh does)";
  }
  return path;
}

std::vector<std::string> CorpusModelNames() {
  const nlohmann::json manifest = ReadJsonFile(SourcePath("corpus/manifest.json"));
  std::vector<std::string> names;
  for (const auto& package : manifest.at("packages")) {
    for (const auto& model : package.at("models"))
      names.push_back(model.at("name").get<std::string>());
  }
  return names;
}

std::string OraclePath(const std::string& relative_path) {
  return std::string(TFA_ORACLE_DIR) + "/" + relative_path;
}

std::string SourcePath(const std::string& relative_path) {
  return std::string(TFA_SOURCE_DIR) + "/" + relative_path;
}

std::string ToolPath() { return std::string(TFA_BINARY_DIR) + "/tflite-analyze"; }

std::string ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json ReadJsonFile(const std::string& path) {
  return nlohmann::json::parse(ReadTextFile(path));
}

std::vector<nlohmann::json> ReadJsonLines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
  }
  return lines;
}

}  // namespace tfa::testing
