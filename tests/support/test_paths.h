// Where tests find their data: the fetched corpus, the unpacked upstream oracle, the built binary.
#ifndef TESTS_SUPPORT_TEST_PATHS_H_
#define TESTS_SUPPORT_TEST_PATHS_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tfa::testing {

// corpus/models/NAME.tflite; the test fails (not skips) when the corpus was not fetched.
std::string CorpusModelPath(const std::string& name);
// Names of the corpus models listed in corpus/manifest.json
// ("face_detection__face_detection_full_range").
std::vector<std::string> CorpusModelNames();
// TFA_ORACLE_DIR/relative_path.
std::string OraclePath(const std::string& relative_path);
// The checkout's relative_path (a file of the source tree).
std::string SourcePath(const std::string& relative_path);
// The path of the built tflite-analyze binary.
std::string ToolPath();

nlohmann::json ReadJsonFile(const std::string& path);
std::vector<nlohmann::json> ReadJsonLines(const std::string& path);
std::string ReadTextFile(const std::string& path);

}  // namespace tfa::testing

#endif  // TESTS_SUPPORT_TEST_PATHS_H_
